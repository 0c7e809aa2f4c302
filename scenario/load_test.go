package scenario

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/crt"
)

const valid = `name: t
kind: land
crt: standard
table: auto
options: [fractional-odds, wild-results]
modifier: 1
hex: {terrain: forest, weather: mud, city: false}
attacker:
  hq_support: true
  ground_support: 2.5
  units:
    - {type: INF, size: corps, factors: 5, nation: GE}
    - {type: ARM, size: division, factors: 2, nation: GE, face_down: true, bp: 3, name: "7th Panzer"}
defender:
  units:
    - {type: INF, factors: 3, nation: USSR}
dice: [5, 1]
`

func TestParseValid(t *testing.T) {
	s, err := Parse("v.yaml", []byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "t" || s.Kind != Land || !s.Has(FractionalOdds) || !s.Has(WildResults) || s.Modifier != 1 {
		t.Errorf("parsed %+v", s)
	}
	u := s.Attacker.Units[1]
	if u.Type != "ARM" || u.Size != "division" || u.Factors != 2 || !u.FaceDown || u.BP != 3 || u.Name != "7th Panzer" || !u.Supply || u.Line != 13 {
		t.Errorf("unit %+v", u)
	}
	if s.Defender.Units[0].Size != "corps" || !s.Hex.Supply || !s.Defender.CanRetreat {
		t.Error("defaults not applied")
	}
	if s.Hex.Terrain != "forest" || s.Attacker.GroundSupport != 2.5 || len(s.Dice) != 2 {
		t.Errorf("hex/side/dice %+v %+v %v", s.Hex, s.Attacker, s.Dice)
	}
}

// The shipped examples run unchanged (docs/scenario-format.md).
func TestExamplesLoad(t *testing.T) {
	files, _ := filepath.Glob("../examples/*.yaml")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	for _, f := range files {
		_, err := Load(f)
		if err != nil && !strings.Contains(err.Error(), "not supported yet") {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// Bad input names the file, line and key.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, from, to string
		want           []string
	}{
		{"unknown key", "modifier: 1", "modifer: 1", []string{"v.yaml:6:1: modifer: unknown key (did you mean \"modifier\"?)"}},
		{"wrong type", "factors: 5,", "factors: five,", []string{"v.yaml:12:", "attacker.units[0].factors: expected a number"}},
		{"negative factors", "factors: 5,", "factors: -5,", []string{"attacker.units[0].factors: -5 is outside 0..100"}},
		{"die out of range", "dice: [5, 1]", "dice: [5, 11]", []string{"v.yaml:17:", "dice[1]: roll 11 is outside"}},
		{"unknown option", "wild-results]", "wild-result]", []string{"options[1]: unknown option \"wild-result\" (did you mean \"wild-results\"?)"}},
		{"both fractional", "[fractional-odds, wild-results]", "[fractional-odds, fractional-odds-d10]", []string{"choose one of"}},
		{"unknown crt", "crt: standard", "crt: std", []string{"v.yaml:3:", "crt: \"std\" is neither a built-in table"}},
		{"empty nation", "nation: USSR", "nation: \"\"", []string{"defender.units[0].nation: missing or empty"}},
		{"unknown unit type", "type: INF, factors: 3", "type: INFX, factors: 3", []string{"defender.units[0].type: unknown unit type \"INFX\" (did you mean \"INF\"?)"}},
		{"bad size", "size: corps", "size: regiment", []string{"attacker.units[0].size: unknown size \"regiment\"; want corps, army, division or brigade"}},
		{"bad terrain", "terrain: forest", "terrain: moon", []string{"hex.terrain: unknown terrain \"moon\""}},
		{"bad weather", "weather: mud", "weather: hail", []string{"hex.weather: unknown weather"}},
		{"bad table", "table: auto", "table: fast", []string{"table: unknown table \"fast\"; want auto, assault or blitz"}},
		{"bombardment keys", "kind: land", "kind: bombardment", []string{"a bombardment takes no crt", "a raid needs at least one bomber"}},
		{"unknown kind", "kind: land", "kind: naval", []string{"unknown kind \"naval\""}},
		{"city and reference town", "city: false", "city: true, reference_town: true", []string{"a reference town is not a city"}},
		{"duplicate key", "modifier: 1", "modifier: 1\nmodifier: 2", []string{"modifier: key appears twice"}},
		{"mud in clear", "hq_support: true\n  ground", "attack_as_mud: true\n  ground", []string{"applies only in winter"}},
		{"defender shore bombardment", "defender:\n", "defender:\n  shore_bombardment: 2\n", []string{"shore bombardment supports only the attacker"}},
		{"no defenders", "  units:\n    - {type: INF, factors: 3, nation: USSR}\n", "  units: []\n", []string{"needs at least one defending unit"}},
		{"red circle on INF", "nation: USSR}", "nation: USSR, red_circle: dark}", []string{"only AT and AA units have red circles"}},
		{"section on land", "nation: USSR}", "nation: USSR, section: 2}", []string{"sea-box sections apply only to invading units"}},
		{"syntax", "hex: {", "hex: {{", []string{"v.yaml:", "invalid YAML"}},
		{"alias", "modifier: 1", "modifier: &m 1", []string{"anchors and aliases are not supported"}},
		{"bombardment key on land", "modifier: 1", "modifier: 1\nnight: true", []string{"only bombardment scenarios take night"}},
		{"replacements attack", "type: INF, size: corps", "type: REPL, size: corps", []string{"replacements never attack"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(valid, c.from) {
				t.Fatalf("fixture %q not in the valid scenario", c.from)
			}
			_, err := Parse("v.yaml", []byte(strings.Replace(valid, c.from, c.to, 1)))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\ndoes not contain %q", err, w)
				}
			}
		})
	}
}

// AsA 3.4: with the stacking option, any three land units, at most two
// corps or armies.
func TestStacking(t *testing.T) {
	four := strings.Replace(valid, "wild-results]", "stacking]", 1)
	four = strings.Replace(four, "    - {type: INF, factors: 3, nation: USSR}\n",
		"    - {type: INF, factors: 3, nation: USSR, name: A}\n    - {type: INF, factors: 3, nation: USSR, name: B}\n    - {type: INF, factors: 3, nation: USSR, name: C}\n", 1)
	_, err := Parse("s.yaml", []byte(four))
	if err == nil || !strings.Contains(err.Error(), "(A, B, C) breaks the stacking limit") {
		t.Fatalf("three corps: %v", err)
	}
	ok := strings.Replace(four, "name: C}", "name: C, size: division}", 1)
	if _, err := Parse("s.yaml", []byte(ok)); err != nil {
		t.Fatalf("two corps and a division: %v", err)
	}
}

func TestAttackAsMudNeedsColdWeatherUnits(t *testing.T) {
	s := strings.Replace(valid, "weather: mud", "weather: winter", 1)
	s = strings.Replace(s, "hq_support: true", "attack_as_mud: true", 1)
	if _, err := Parse("w.yaml", []byte(s)); err == nil || !strings.Contains(err.Error(), "0 of 2 are") {
		t.Fatalf("winter election without ski units: %v", err)
	}
	s = strings.Replace(s, "nation: GE}", "nation: GE, ski: true}", 1)
	if _, err := Parse("w.yaml", []byte(s)); err != nil {
		t.Fatalf("half ski: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(valid))
	files, _ := filepath.Glob("../examples/*.yaml")
	bad, _ := filepath.Glob("../testdata/bad/*.yaml")
	for _, p := range append(files, bad...) {
		data, _ := os.ReadFile(p)
		f.Add(data)
	}
	f.Add([]byte("kind: land\nattacker: [1]\n"))
	f.Add([]byte(strings.Replace(pocketPlan, "objective: all", "objective: {set: [North, Suoth], at_least: 9}", 1)))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.yaml") {
				t.Fatalf("error without the file name: %v", err)
			}
			return
		}
		if s.Kind == Bombardment {
			if len(s.Raid.Bombers) == 0 {
				t.Fatalf("accepted a raid without bombers")
			}
			return
		}
		if s.IsOperation() {
			checkOperation(t, s.Operation)
			return
		}
		if s.IsPlan() {
			switch {
			case s.Plan.Side == DefenderSide && (len(s.Defender.Available) == 0 || len(s.Defender.Available) > MaxReserves || len(s.Targets) > 0):
				t.Fatalf("accepted a defender's plan with %d reserves and %d targets", len(s.Defender.Available), len(s.Targets))
			case s.Plan.Side == DefenderSide && len(s.Attacker.Units)+len(s.Attacker.Available)+len(s.Attacker.SupportAvailable) == 0:
				t.Fatalf("accepted a defender's plan with no attacker")
			case s.Plan.Side != DefenderSide && len(s.Attacker.Available)+len(s.Attacker.SupportAvailable) == 0:
				t.Fatalf("accepted a plan with nothing to choose from")
			case s.Plan.Side != DefenderSide && len(s.Defender.Available) > 0:
				t.Fatalf("accepted reserves in an attacker's plan")
			}
			for _, tg := range s.Targets {
				if tg.Scenario.Kind == Land && len(tg.Scenario.Defender.Units) == 0 {
					t.Fatalf("accepted a front target %s with no defender", tg.ID)
				}
			}
			if len(s.Targets) > 0 {
				return
			}
		} else if len(s.Attacker.Units) == 0 {
			t.Fatalf("accepted an incomplete scenario: %+v", s)
		}
		if s.Kind == Land && len(s.Defender.Units) == 0 {
			t.Fatalf("accepted an incomplete scenario: %+v", s)
		}
	})
}

// AsA 3.10-3.11: German and Japanese LS carry INF, MAR, PARA or MTN
// divisions from the 3-section; sections are 1-3 and only for invaders.
func TestInvasionKeys(t *testing.T) {
	base := "kind: invasion\nattacker:\n  units:\n    - {type: INF, size: division, factors: 2, nation: JA, ls: true%s}\ndefender:\n  units: []\n"
	if _, err := Parse("i.yaml", []byte(strings.Replace(base, "%s", "", 1))); err != nil {
		t.Fatalf("a Japanese INF division by LS from the 3-section: %v", err)
	}
	for extra, want := range map[string]string{
		", section: 2":  "only from the 3-section",
		", section: 4":  "want 1, 2 or 3",
		", size: corps": "carries one INF, MAR, PARA or MTN division",
		", nation: US":  "only German and Japanese LS",
		", type: ARM":   "carries one INF, MAR, PARA or MTN division",
	} {
		text := strings.Replace(base, "%s", extra, 1)
		// Later keys in a flow mapping would be duplicates; rewrite instead.
		for _, k := range []string{"size", "nation", "type"} {
			if strings.HasPrefix(extra, ", "+k+":") {
				text = strings.Replace(base, "%s", "", 1)
				old := map[string]string{"size": "size: division", "nation": "nation: JA", "type": "type: INF"}[k]
				text = strings.Replace(text, old, strings.TrimPrefix(extra, ", "), 1)
			}
		}
		if _, err := Parse("i.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", extra, err, want)
		}
	}
	if _, err := Parse("i.yaml", []byte("kind: invasion\nhex: {across_river: true}\nattacker:\n  units: [{type: MAR, factors: 2, nation: US}]\n")); err == nil || !strings.Contains(err.Error(), "does not apply to invasions") {
		t.Errorf("across_river on an invasion: %v", err)
	}
	if _, err := Parse("i.yaml", []byte("kind: invasion\nattacker:\n  units: [{type: ART, size: division, factors: 2, nation: US}]\n")); err == nil || !strings.Contains(err.Error(), "cannot invade") {
		t.Errorf("artillery invading: %v", err)
	}
}

// AWAW keys need the option and fit only their units (docs/rules.md §6).
func TestAWAWKeys(t *testing.T) {
	base := "kind: land\noptions: [awaw-unit-effects]\nhex: {protected: true}\nattacker:\n  exploiting: true\n  units: [{type: CHINDIT, size: brigade, factors: 1, nation: CW, isolated: true}]\ndefender:\n  ctl: 0\n  units: [{type: ARM, factors: 2, nation: JA, mech_negated: true}]\n"
	if _, err := Parse("a.yaml", []byte(base)); err != nil {
		t.Fatalf("valid AWAW keys: %v", err)
	}
	for from, want := range map[string]string{
		"options: [awaw-unit-effects]\n": "needs the awaw-unit-effects option",
		"type: ARM, factors: 2":          "only ARM and MECH units have a mechanized component",
		"type: CHINDIT":                  "only Chindits count as isolated",
	} {
		to := map[string]string{"options: [awaw-unit-effects]\n": "", "type: ARM, factors: 2": "type: INF, factors: 2", "type: CHINDIT": "type: INF"}[from]
		if _, err := Parse("a.yaml", []byte(strings.Replace(base, from, to, 1))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q -> %q: %v, want %q", from, to, err, want)
		}
	}
}

// Each unit type takes only its own attributes (issue: unit model).
func TestUnitAttributes(t *testing.T) {
	base := "kind: land\noptions: [artillery]\nattacker:\n  units: [{type: INF, factors: 3, nation: GE}]\ndefender:\n  units: [%s]\n"
	for unit, want := range map[string]string{
		"{type: INF, factors: 1, nation: FR, towed: true}":                                 "only AT, AA and ART units are towed",
		"{type: INF, factors: 1, nation: FR, heavy: true}":                                 "only AA units are heavy",
		"{type: AT, size: division, factors: 1, nation: FR, red_circle: pink}":             "want dark or light",
		"{type: ART, size: division, factors: 1, nation: FR, towed: true, katyusha: true}": "self-propelled for combat",
		"{type: INF, factors: 1, nation: FR, role: support}":                               "only ART units bombard",
		"{type: ART, size: division, factors: 1, nation: FR, role: fire}":                  "want combat",
		"{type: INF, factors: 1, nation: FR, ls: true}":                                    "only invading units travel by LS",
		"{type: INF, size: platoon, factors: 1, nation: FR}":                               "want corps, army, division or brigade",
	} {
		_, err := Parse("u.yaml", []byte(strings.Replace(base, "%s", unit, 1)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", unit, err, want)
		}
	}
	ok := strings.Replace(base, "%s", "{type: ART, size: division, factors: 2, nation: FR, role: support, katyusha: true}, {type: INF, factors: 1, nation: FR}", 1)
	if _, err := Parse("u.yaml", []byte(ok)); err != nil {
		t.Errorf("defensive Katyusha support: %v", err)
	}
}

// Audit item 7 (docs/rules.md §5 step 1, AsA 3.2): ships in port add their
// AA only to a port attack, so a strategic bombardment refuses any ships'
// AA (the key itself stays in the format, and 0 means none).
func TestPortShipsAARefused(t *testing.T) {
	if _, err := Parse("raid.yaml", []byte("kind: bombardment\ntarget: {factories: 2, port_ships_aa: 0}\nbombers: [{a2a: 3, sb: 3}]\n")); err != nil {
		t.Errorf("port_ships_aa: 0 refused: %v", err)
	}
	_, err := Parse("raid.yaml", []byte("kind: bombardment\ntarget: {factories: 2, port_ships_aa: 3}\nbombers: [{a2a: 3, sb: 3}]\n"))
	if err == nil || !strings.Contains(err.Error(), "raid.yaml:2:39: target.port_ships_aa: ships' AA fires only at a port attack (AsA 3.2)") {
		t.Errorf("got %v", err)
	}
}

// The terrains a scenario accepts are the terrains every table gives a
// modifier for, so a combat's terrain modifier lookup cannot miss.
func TestTerrainNamesMatchTables(t *testing.T) {
	var names []string
	for k := range Terrains {
		names = append(names, k)
	}
	slices.Sort(names)
	if !slices.Equal(names, crt.Terrains) {
		t.Errorf("scenario terrains %v, table terrains %v", names, crt.Terrains)
	}
}

// Nations are matched by code, name or alias without regard to case, and
// stored as the code; an unknown one gets a suggestion
// (docs/scenario-format.md).
func TestNations(t *testing.T) {
	for in, want := range map[string]string{"GE": "GE", "ger": "GE", "Germany": "GE", " germany ": "GE", "USSR": "USSR",
		"Russia": "USSR", "su": "USSR", "Japan": "JA", "jp": "JA", "UK": "CW", "India": "CW", "Finland": "FI", "usa": "US"} {
		if got, ok := LookupNation(in); !ok || got != want {
			t.Errorf("%q: got %q %v, want %q", in, got, ok, want)
		}
	}
	s, err := Parse("n.yaml", []byte(strings.Replace(valid, "nation: GE", "nation: germany", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if s.Attacker.Units[0].Nation != "GE" {
		t.Errorf("stored %q, want the code GE", s.Attacker.Units[0].Nation)
	}
	_, err = Parse("n.yaml", []byte(strings.Replace(valid, "nation: GE", "nation: Germnay", 1)))
	if err == nil || !strings.Contains(err.Error(), `unknown nation "Germnay" (did you mean GE, Germany?)`) {
		t.Errorf("got %v", err)
	}
	seen := map[string]string{}
	for _, n := range Nations {
		for _, s := range append([]string{n.Code, n.Name}, n.Aliases...) {
			if other, dup := seen[strings.ToUpper(s)]; dup {
				t.Errorf("%q names both %s and %s", s, other, n.Code)
			}
			seen[strings.ToUpper(s)] = n.Code
		}
	}
}

// Enumerated values match without regard to case; unknown keys that mean a
// known one by another word are answered with it (issue 15).
func TestForgivingInput(t *testing.T) {
	text := strings.NewReplacer("crt: standard", "crt: 2D6", "terrain: forest", "terrain: Forest", "size: corps", "size: Corps",
		"type: INF", "type: inf", "table: auto", "table: Blitz").Replace(valid)
	s, err := Parse("f.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if s.CRT != "2d6" || s.Table != "blitz" || s.Hex.Terrain != "forest" || s.Attacker.Units[0].Type != INF || s.Attacker.Units[0].Size != "corps" {
		t.Errorf("got crt %q table %q terrain %q type %q size %q", s.CRT, s.Table, s.Hex.Terrain, s.Attacker.Units[0].Type, s.Attacker.Units[0].Size)
	}
	_, err = Parse("f.yaml", []byte(strings.Replace(valid, "hex: {", "hex: {river: true, ", 1)))
	if err == nil || !strings.Contains(err.Error(), `hex.river: unknown key (did you mean "across_river"?)`) {
		t.Errorf("river: %v", err)
	}
}

// A scenario parsed with NoFiles names no file and never looks for one:
// over the network, a key naming a file is an error whether or not the
// file exists.
func TestParseNoFiles(t *testing.T) {
	for _, text := range []string{
		"kind: land\ncrt: /etc/passwd\nattacker: {units: [{type: INF, factors: 3, nation: GE}]}\ndefender: {units: [{type: INF, factors: 1, nation: FR}]}\n",
		"kind: land\ncrt: ../crt/data/standard.yaml\nattacker: {units: [{type: INF, factors: 3, nation: GE}]}\ndefender: {units: [{type: INF, factors: 1, nation: FR}]}\n",
		"kind: bombardment\nair_tables: /nonexistent\ntarget: {factories: 1}\nbombers: [{a2a: 1, sb: 2}]\n",
		"kind: land\ndefender: {units: [{type: INF, factors: 1, nation: FR}]}\nattacker: {available: [{type: INF, factors: 3, nation: GE}]}\nplan: {crts: [standard, mine.yaml]}\n",
	} {
		_, err := ParseWith("net.yaml", []byte(text), ParseOptions{NoFiles: true})
		if err == nil || !strings.Contains(err.Error(), "names a file") {
			t.Errorf("%v\n%s", err, text)
		}
	}
	ok := "kind: land\ncrt: 2D6\nattacker: {units: [{type: INF, factors: 3, nation: GE}]}\ndefender: {units: [{type: INF, factors: 1, nation: FR}]}\n"
	if _, err := ParseWith("net.yaml", []byte(ok), ParseOptions{NoFiles: true}); err != nil {
		t.Errorf("a built-in table: %v", err)
	}
}

// checkOperation checks what the loader promises of an operation it
// accepts: every combat complete, requirements and sets naming targets,
// and an order of attack with every target after those it requires.
func checkOperation(t *testing.T, op *Operation) {
	t.Helper()
	n := len(op.Targets)
	if n == 0 || n > MaxOperationTargets || len(op.Order) != n {
		t.Fatalf("accepted an operation of %d targets with order %v", n, op.Order)
	}
	for _, tg := range op.Targets {
		sc := tg.Scenario
		if len(sc.Attacker.Units) == 0 || sc.Kind == Land && len(sc.Defender.Units) == 0 || sc.IsPlan() || sc.IsOperation() {
			t.Fatalf("accepted an incomplete target %s: %+v", tg.ID, sc)
		}
	}
	pos := make([]int, n)
	seen := make([]bool, n)
	for k, i := range op.Order {
		if i < 0 || i >= n || seen[i] {
			t.Fatalf("order %v is not a permutation", op.Order)
		}
		seen[i], pos[i] = true, k
	}
	for i, tg := range op.Targets {
		for _, r := range tg.Requires {
			if r < 0 || r >= n || r == i || pos[r] > pos[i] {
				t.Fatalf("%s requires %d, out of order in %v", tg.ID, r, op.Order)
			}
		}
	}
	for _, set := range op.Sets {
		if len(set.Targets) == 0 {
			t.Fatalf("accepted an empty set %s", set.Name)
		}
		for _, i := range set.Targets {
			if i < 0 || i >= n {
				t.Fatalf("set %s names target %d of %d", set.Name, i, n)
			}
		}
	}
}
