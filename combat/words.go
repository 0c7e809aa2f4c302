package combat

import (
	"fmt"
	"strings"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
)

// Words says in plain English what outcome o of c does to the two stacks
// (docs/rules.md §2, AfA 8.3): the attackers' part (units lost of how
// many, the rest face-down or face-up), the defenders' part (units
// destroyed of how many, the survivors retreated or shattered), then
// whether the hex is taken and with a breakthrough; clauses are joined by
// "; ", so the first is the attackers' part. An R, S or B that meets no
// survivor is not mentioned: a 2S that destroys both defenders shatters
// nobody. A new player reads "2/2S" as a puzzle; this reads it for them.
func (c *Combat) Words(o *Outcome) string {
	if o.NotAllowed {
		return "The airdrop may not be made below 1:1 (AWAW 10.55C); nothing happens."
	}
	clauses := []string{c.attackerWords(o)}
	clauses = append(clauses, c.defenderWords(o)...)
	clauses = append(clauses, c.hexWords(o))
	s := strings.Join(clauses, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// attackerWords is the attackers' part: §2's "N attacking units are
// destroyed and the rest turn face-down", "-" and "*".
func (c *Combat) attackerWords(o *Outcome) string {
	n := len(c.AttOrder)
	lost := int(o.AttackerLost + o.AttackerReduced)
	var s string
	switch {
	case n == 0:
		return "no attacking unit takes part"
	case lost == 0 && n == 1:
		s = "the attacking unit is not lost"
	case lost == 0:
		s = fmt.Sprintf("none of the %d attacking units is lost", n)
	case lost == n && n == 1:
		s = "the attacking unit is lost"
	case lost == n && n == 2:
		s = "both attacking units are lost"
	case lost == n:
		s = fmt.Sprintf("all %d attacking units are lost", n)
	default:
		s = fmt.Sprintf("the attackers lose %d of their %d units", lost, n)
	}
	if r := int(o.AttackerReduced); r > 0 {
		s += " (" + kampfgruppe(r) + ")"
	}
	left := n - lost
	if left == 0 {
		return s
	}
	who := "the rest"
	switch {
	case lost == 0 && n == 1:
		who = "it"
	case lost == 0:
		who = "they"
	case left == 1:
		who = "the other"
	}
	verb := func(one, many string) string {
		if left == 1 && who != "they" {
			return one
		}
		return many
	}
	switch {
	case lost == 0 && c.invadersTurned(o.HexTaken, o.Automatic):
		// Said only where it decides: after a loss the rest turn
		// face-down anyway.
		return s + " and " + who + " " + verb("turns", "turn") + " face-down, as invaders do after a successful invasion outside clear and desert"
	case o.AttackerFaceUp:
		return s + " and " + who + " " + verb("stays", "stay") + " face-up"
	}
	return s + " and " + who + " " + verb("turns", "turn") + " face-down"
}

// defenderWords is the defenders' part: §2's "N defending units are
// destroyed", then what R, S or B does to the survivors, if any. A hex
// with no real defender (an invasion or paradrop) has only its notional
// unit (§4), which any defender part but "-" destroys.
func (c *Combat) defenderWords(o *Outcome) []string {
	m := len(c.DefOrder)
	r := o.Result
	if m == 0 {
		if r.DefenderLoss > 0 || r.Effect != crt.NoEffect {
			return []string{"the notional defending unit is destroyed"}
		}
		return []string{"the notional defending unit holds"}
	}
	// The result's own losses; DefenderLost also counts survivors that
	// could not retreat, and leaves out corps replaced by a division.
	hit := min(int(r.DefenderLoss), m)
	var out []string
	switch {
	case hit == 0 && r.Effect == crt.NoEffect:
		out = append(out, plural(m, "the defending unit is unharmed", "the defenders are unharmed"))
	case hit == 0:
	case hit == m && m == 1:
		out = append(out, "the defending unit is destroyed")
	case hit == m && m == 2:
		out = append(out, "both defending units are destroyed")
	case hit == m:
		out = append(out, fmt.Sprintf("all %d defending units are destroyed", m))
	default:
		out = append(out, fmt.Sprintf("%d of the %d defending units %s destroyed", hit, m, plural(hit, "is", "are")))
	}
	if red := int(o.DefenderReduced); red > 0 && len(out) > 0 {
		out[len(out)-1] += " (" + kampfgruppe(red) + pick(red == 1, ", which retreats", ", which retreat") + ")"
	}
	left := m - hit
	if left == 0 || r.Effect == crt.NoEffect {
		return out
	}
	var who string
	switch {
	case hit > 0 && left == 1:
		who = "the survivor"
	case hit > 0:
		who = fmt.Sprintf("the %d survivors", left)
	case m == 1:
		who = "the defending unit"
	case m == 2:
		who = "both defending units"
	default:
		who = fmt.Sprintf("all %d defending units", m)
	}
	one := left == 1
	switch {
	case o.DefenderRetreated > 0:
		out = append(out, who+" "+pick(one, "retreats", "retreat"))
	case o.DefenderShattered > 0:
		out = append(out, who+" "+pick(one, "is", "are")+" shattered, to the production spiral")
	default:
		// settle: survivors that cannot retreat are destroyed (§2).
		out = append(out, who+" cannot retreat and "+pick(one, "is", "are")+" destroyed")
	}
	return out
}

// hexWords says whether the hex is taken (§2; for an invasion or a
// paradrop, whether it succeeds, §4) and with a breakthrough (B).
func (c *Combat) hexWords(o *Outcome) string {
	var s string
	switch kind := c.Scenario.Kind; {
	case kind == scenario.Land && o.HexTaken:
		s = "the hex is taken"
	case kind == scenario.Land:
		s = "the hex holds"
	case o.HexTaken:
		s = "the " + string(kind) + " succeeds and the hex is taken"
	default:
		s = "the " + string(kind) + " fails"
	}
	if o.Breakthrough {
		s += ", with a breakthrough"
	}
	return s
}

// kampfgruppe says that n of the units lost, corps or armies, are
// replaced by a division (docs/rules.md §3, AsA 3.1.1).
func kampfgruppe(n int) string {
	return fmt.Sprintf("%d of them replaced by %s", n, plural(n, "a Kampfgruppe division", "Kampfgruppe divisions"))
}

func plural(n int, one, many string) string { return pick(n == 1, one, many) }

func pick(one bool, a, b string) string {
	if one {
		return a
	}
	return b
}
