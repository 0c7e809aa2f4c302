package combat

import (
	"fmt"
	"slices"
	"sort"

	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Raid is a strategic bombardment compiled for resolution (docs/rules.md §5).
type Raid struct {
	Scenario *scenario.Scenario
	Tables   *crt.AirTables
	Steps    []Step
	// AAFactors, AADice and AATable are the first raid's AA fire: F
	// factors rolling AADice dice on table AATable.
	AAFactors int
	AADice    int
	AATable   int
	Outcomes  []RaidOutcome // every outcome of one raid, interned

	order  []int       // bombers in the order AA fire takes them
	planes []crt.Plane // the same bombers as AA fire sees them
	intern map[RaidOutcome]int32
	flat   *sim.Flat
}

// RaidOutcome is what one raid did.
type RaidOutcome struct {
	Hit     int8  // bombers hit by 6s: the first Hit in AA order
	Damaged int8  // carriers among them: damaged, not destroyed (docs/rules.md §5 step 4)
	Aborted int8  // bombers aborted: the next Aborted in AA order
	Factors int16 // bombing factors that pressed the attack
	Roll    int8  // modified SB roll, 0 when nothing bombed
	BP      int8  // build points lost
	Star    bool  // an asterisk on the SB table
	Factory bool  // a factory destroyed by the asterisk
	Oil     bool  // an oil point lost to the asterisk
	AALost  int8  // the AA unit destroyed by the asterisk (index), or -1
}

// raidState is what carries from raid to raid in a campaign: the bombers
// left (those hit are always the first in AA order, so a count will do; a
// damaged carrier sits out the rest of the campaign), the AA units left,
// factories and oil points left.
type raidState struct {
	gone      int    // bombers destroyed so far
	aa        uint32 // bit i set: AA unit i still in the hex
	factories int
	oil       int
}

// CompileRaid validates a bombardment scenario against its air tables.
func CompileRaid(s *scenario.Scenario, t *crt.AirTables) (*Raid, error) {
	if s.Kind != scenario.Bombardment {
		return nil, fmt.Errorf("%s: not a bombardment", s.File)
	}
	r := &Raid{Scenario: s, Tables: t, intern: map[RaidOutcome]int32{}}
	bs := s.Raid.Bombers
	r.order = make([]int, len(bs))
	for i := range r.order {
		r.order[i] = i
	}
	// AA fire takes the lowest air-to-air bomber; on ties the owner chooses,
	// by default the one with the fewest bombing factors (docs/rules.md §5).
	sort.SliceStable(r.order, func(a, b int) bool {
		x, y := &bs[r.order[a]], &bs[r.order[b]]
		if x.A2A != y.A2A {
			return x.A2A < y.A2A
		}
		return x.SB < y.SB
	})
	for _, i := range r.order {
		r.planes = append(r.planes, crt.Plane{A2A: bs[i].A2A, Factors: float64(bs[i].SB)})
	}
	st := r.initial()
	f, k, tb, err := r.fire(st, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.File, err)
	}
	r.AAFactors, r.AADice, r.AATable = f, k, tb
	var names []string
	for _, i := range r.order {
		names = append(names, fmt.Sprintf("%s (air-to-air %d, bombing %d)", bs[i].Name, bs[i].A2A, bs[i].SB))
	}
	r.step(fmt.Sprintf("AA fire takes bombers in this order: %v", names), "rules §5 steps 4-5, AsA 3.2.1")
	r.flat = sim.BuildFlat(func(d sim.Dice) int { return r.internOutcome(r.resolve(d, st)) })
	if r.flat == nil {
		return nil, fmt.Errorf("%s: %d AA dice against %d bombers make a dice tree too large to tabulate; split the raid", s.File, k, len(bs))
	}
	return r, nil
}

func (r *Raid) step(text, rule string) { r.Steps = append(r.Steps, Step{text, rule}) }

func (r *Raid) initial() raidState {
	t := r.Scenario.Raid.Target
	return raidState{aa: uint32(1)<<len(r.Scenario.Raid.AA) - 1, factories: t.Factories, oil: t.Oil}
}

// fire works out the AA fire of a state (docs/rules.md §5 steps 1-2): AA units
// (heavy doubled), 1 per factory, oil resource and synth plant, ships in
// port and flak, halved at night and rounded after halving; then the chart.
func (r *Raid) fire(st raidState, explain bool) (factors, dice, table int, err error) {
	rd := &r.Scenario.Raid
	f := 0.0
	for i, u := range rd.AA {
		if st.aa&(1<<i) == 0 {
			continue
		}
		v := u.Factors
		if u.Heavy {
			v *= 2
		}
		f += float64(v)
		if explain {
			h := ""
			if u.Heavy {
				h = ", heavy: doubled"
			}
			r.step(fmt.Sprintf("AA unit %s: %d%s -> %d", AAName(u, i), u.Factors, h, v), "rules §5 step 1, AsA 3.2.1")
		}
	}
	intrinsic := st.factories + st.oil + rd.Target.SynthPlants
	f += float64(intrinsic + rd.Target.Flak)
	if explain {
		r.step(fmt.Sprintf("intrinsic AA %d (factories %d, oil %d, synth plants %d), flak %d: total %s",
			intrinsic, st.factories, st.oil, rd.Target.SynthPlants, rd.Target.Flak, num(f)), "rules §5 step 1, AsA 3.2.2, AfA 3.8, AWAW 10.95")
	}
	if rd.Night {
		f /= 2
		if explain {
			r.step(fmt.Sprintf("night: halved to %s", num(f)), "rules §5 step 1, AsA 3.2.1")
		}
	}
	factors = int(crt.RoundNearest.Round(f))
	n := len(rd.Bombers) - st.gone
	if factors == 0 || n == 0 {
		if explain {
			r.step(fmt.Sprintf("%d AA factors: no AA fire", factors), "rules §5 step 2")
		}
		return factors, 0, 0, nil
	}
	fire, err := r.Tables.Fire(factors, n)
	if err != nil {
		return 0, 0, 0, err
	}
	if explain {
		r.step(fmt.Sprintf("%d AA factors against %d aircraft: %d dice on the %d table", factors, n, fire.Dice, fire.Table), "rules §5 step 2")
	}
	return factors, fire.Dice, fire.Table, nil
}

func AAName(u scenario.AAUnit, i int) string {
	if u.Name != "" {
		return u.Name
	}
	return fmt.Sprintf("#%d", i+1)
}

// resolve is the raid's resolution routine (docs/rules.md §5 steps 3-8): it rolls
// the AA dice, then the SB die when anything bombs, then, on an asterisk
// with more than one AA unit left, a die to pick the AA unit destroyed.
func (r *Raid) resolve(d sim.Dice, st raidState) RaidOutcome {
	return r.resolveFired(d, st, r.aaFire(st))
}

// aaFire is a state's AA dice and table (fire's, without the working).
func (r *Raid) aaFire(st raidState) aaFire {
	_, k, tb, err := r.fire(st, false)
	if err != nil {
		// Campaign states only shrink the AA factors and the bombers, so
		// they stay inside a chart the first raid fitted.
		panic(err)
	}
	return aaFire{k, tb}
}

// aaFire is the AA fire of a raid state: dice dice on table table.
type aaFire struct{ dice, table int }

// resolveFired is resolve with the state's AA fire worked out once, for
// the chain, which resolves every path of a state's table.
func (r *Raid) resolveFired(d sim.Dice, st raidState, fire aaFire) RaidOutcome {
	rd := &r.Scenario.Raid
	bs := rd.Bombers
	k, tb := fire.dice, fire.table
	out := RaidOutcome{AALost: -1}
	var rolls [32]int
	for i := range k {
		rolls[i] = d.Roll(6)
	}
	// Steps 3-6, on the bombers still flying.
	shot := r.Tables.Shoot(tb, rolls[:k], r.planes[st.gone:])
	out.Hit, out.Aborted = int8(shot.Hit), int8(shot.Aborted)
	for _, i := range r.order[st.gone : st.gone+shot.Hit] {
		if bs[i].Carrier {
			out.Damaged++ // damaged, not destroyed (docs/rules.md §5 step 4)
		}
	}
	bombing := int(shot.Press)
	out.Factors = int16(bombing)
	if bombing == 0 {
		return out
	}
	// Step 7: the SB roll, +1 if no interceptor engaged.
	roll := d.Roll(6)
	if !rd.Intercepted {
		roll++
	}
	sb := r.Tables.Bomb(bombing, roll)
	out.Roll, out.BP, out.Star = int8(roll), int8(sb.BP), sb.Star
	if !sb.Star {
		return out
	}
	// Step 8: the asterisk's effects.
	out.Factory = st.factories > 0
	out.Oil = st.oil > 0
	var left []int
	for i := range rd.AA {
		if st.aa&(1<<i) != 0 {
			left = append(left, i)
		}
	}
	switch len(left) {
	case 0:
	case 1:
		out.AALost = int8(left[0])
	default:
		out.AALost = int8(left[d.Roll(len(left))-1])
	}
	return out
}

func (r *Raid) internOutcome(o RaidOutcome) int {
	if i, ok := r.intern[o]; ok {
		return int(i)
	}
	i := int32(len(r.Outcomes))
	r.Outcomes = append(r.Outcomes, o)
	r.intern[o] = i
	return int(i)
}

// ResolveRaid resolves one raid with dice d and returns the outcome index.
func ResolveRaid(r *Raid, d sim.Dice) int {
	o := r.resolve(d, r.initial())
	i, ok := r.intern[o]
	if !ok {
		panic("combat: a raid outcome the flat table did not list")
	}
	return int(i)
}

// NumOutcomes is the number of distinct raid outcomes (sim.Model).
func (r *Raid) NumOutcomes() int { return len(r.Outcomes) }

// Resolve resolves one raid (sim.Model).
func (r *Raid) Resolve(d sim.Dice) int { return ResolveRaid(r, d) }

// Trial resolves one raid on the engine's stream (sim.Model).
func (r *Raid) Trial(d sim.Stream) int { return ResolveRaid(r, d) }

// Flat is the raid's dice tree as a table (sim.Model); every compiled raid
// has one.
func (r *Raid) Flat() *sim.Flat { return r.flat }

// advance applies a raid's outcome to the campaign state: destroyed
// bombers, AA units and factories stay destroyed, oil points stay lost and
// aborted bombers return.
func (st raidState) advance(o RaidOutcome) raidState {
	st.gone += int(o.Hit)
	if o.AALost >= 0 {
		st.aa &^= 1 << o.AALost
	}
	if o.Factory {
		st.factories--
	}
	if o.Oil {
		st.oil--
	}
	return st
}

// RaidMetric is one thing a raid counts and a campaign totals. Adding a
// metric is one entry in RaidMetrics and its term in Totals (a test checks
// that they agree): the packed campaign key, the summaries and the reports
// all follow the table.
type RaidMetric struct {
	Name  string // the key in summaries and JSON
	Label string // what a player reads
	Bits  int    // its width in a packed campaign key
	Event string // the name of P(at least one), or "" when a summary gives none
	// Of is what one raid adds to it.
	Of func(o *RaidOutcome) int
}

// RaidMetrics are a raid's metrics, in report order; their widths add up
// to the 64 bits of a campaign key.
var RaidMetrics = [...]RaidMetric{
	{"bp_lost", "build points lost", 12, "build_points_lost", func(o *RaidOutcome) int { return int(o.BP) }},
	{"factories_destroyed", "factories destroyed", 5, "factory_destroyed", func(o *RaidOutcome) int { return one(o.Factory) }},
	{"oil_points_lost", "oil points lost", 5, "oil_point_lost", func(o *RaidOutcome) int { return one(o.Oil) }},
	{"aa_units_destroyed", "AA units destroyed", 5, "aa_unit_destroyed", func(o *RaidOutcome) int { return one(o.AALost >= 0) }},
	{"bombers_destroyed", "bombers destroyed", 6, "bomber_destroyed", func(o *RaidOutcome) int { return int(o.Hit - o.Damaged) }},
	{"carriers_damaged", "carriers damaged", 6, "carrier_damaged", func(o *RaidOutcome) int { return int(o.Damaged) }},
	{"bombers_aborted", "bombers aborted", 9, "", func(o *RaidOutcome) int { return int(o.Aborted) }},
	{"factors_bombing", "factors bombing", 16, "", func(o *RaidOutcome) int { return int(o.Factors) }},
}

func one(b bool) int {
	if b {
		return 1
	}
	return 0
}

// CampaignTotals are a campaign's totals, one per RaidMetrics entry.
type CampaignTotals [len(RaidMetrics)]int

// Totals is what one raid adds to a campaign's totals: RaidMetrics' Of, in
// table order, written out because the campaign loop calls it for every
// raid of every trial; a test checks that it agrees with the table.
func (o *RaidOutcome) Totals() CampaignTotals {
	return CampaignTotals{int(o.BP), one(o.Factory), one(o.Oil), one(o.AALost >= 0),
		int(o.Hit - o.Damaged), int(o.Damaged), int(o.Aborted), int(o.Factors)}
}

// Campaign returns a trial function for SampleKeys that flies raids raids
// against the target, carrying losses forward (docs/rules.md §5), and packs
// the totals with PackCampaign.
//
// The campaign is a Markov chain over raid states (bombers, AA units,
// factories and oil left): each state reachable within the campaign has the
// flat table of one raid from it, built from the raid's own routine, and
// each of its outcomes carries the next state and its packed totals, so a
// raid is one draw and two lookups. Totals never carry between fields
// (MaxRaids bounds them), so packed increments add. When a state's raid is
// too large to tabulate, every raid is resolved afresh instead.
func (r *Raid) Campaign(raids int) func() func(d sim.Stream) uint64 {
	ch := r.Chain(raids)
	return func() func(d sim.Stream) uint64 {
		if ch == nil {
			return r.campaignByRaids(raids)
		}
		return func(d sim.Stream) uint64 {
			var key uint64
			s := int32(0)
			for range raids {
				cs := &ch[s]
				if cs.Flat == nil {
					break
				}
				o := cs.Flat.Outcome(d.Roll(cs.Flat.Paths()) - 1)
				key += cs.Add[o]
				s = cs.Next[o]
			}
			return key
		}
	}
}

// campaignByRaids flies the campaign resolving every raid afresh: the
// reference the chain is built from, and the fallback.
func (r *Raid) campaignByRaids(raids int) func(d sim.Stream) uint64 {
	return func(d sim.Stream) uint64 {
		st := r.initial()
		var t CampaignTotals
		for i := 0; i < raids; i++ {
			if st.gone == len(r.Scenario.Raid.Bombers) {
				break
			}
			o := r.resolve(d, st)
			st = st.advance(o)
			add := o.Totals()
			for k := range t {
				t[k] += add[k]
			}
		}
		return PackCampaign(t)
	}
}

// ChainState is a campaign state with the table of one raid from it. It is
// read-only: Campaign, CampaignExact and the benchmarks' Markov kernel
// read it.
type ChainState struct {
	Flat *sim.Flat // one raid from this state; nil when no raid is flown from it
	Next []int32   // by the table's outcome: the state after it
	Add  []uint64  // by the table's outcome: its totals, packed
}

// Chain builds the campaign's states breadth first from the initial one
// (state 0), each with its raid's table, up to raids raids; nil when a
// raid is too large to tabulate.
func (r *Raid) Chain(raids int) []ChainState {
	index := map[raidState]int32{r.initial(): 0}
	states := []raidState{r.initial()}
	depth := []int{0}
	out := []ChainState{{}}
	for i := 0; i < len(states); i++ {
		st := states[i]
		if st.gone == len(r.Scenario.Raid.Bombers) || depth[i] == raids {
			continue // no raid is flown from here
		}
		var locals []RaidOutcome
		fire := r.aaFire(st)
		f := sim.BuildFlat(func(d sim.Dice) int {
			o := r.resolveFired(d, st, fire)
			// A state's raid has a few dozen outcomes: a scan beats
			// hashing the struct.
			k := slices.Index(locals, o)
			if k < 0 {
				k = len(locals)
				locals = append(locals, o)
			}
			return k
		})
		if f == nil {
			return nil
		}
		cs := ChainState{Flat: f}
		for _, o := range locals {
			next := st.advance(o)
			j, ok := index[next]
			if !ok {
				j = int32(len(states))
				index[next] = j
				states = append(states, next)
				depth = append(depth, depth[i]+1)
				out = append(out, ChainState{})
			}
			cs.Next = append(cs.Next, j)
			cs.Add = append(cs.Add, PackCampaign(o.Totals()))
		}
		out[i] = cs
	}
	return out
}

// MaxRaids is the longest campaign: its totals must fit the metrics' widths
// in a campaign key (factors bombing under 2^16 with 60 bombers of 30
// factors).
const MaxRaids = 20

// PackCampaign packs totals into a key, the first metric in the highest
// bits; UnpackCampaign reverses it.
func PackCampaign(t CampaignTotals) uint64 {
	var k uint64
	for i, m := range RaidMetrics {
		k = k<<m.Bits | uint64(t[i])
	}
	return k
}

// campaignField is metric k's total in a packed key.
func campaignField(key uint64, k int) int {
	return int(key >> metricShift[k] & (1<<RaidMetrics[k].Bits - 1))
}

// metricShift is where each metric's bits start in a packed key.
var metricShift = func() (s [len(RaidMetrics)]int) {
	at := 0
	for k := len(RaidMetrics) - 1; k >= 0; k-- {
		s[k] = at
		at += RaidMetrics[k].Bits
	}
	return s
}()

// UnpackCampaign unpacks a key made by PackCampaign.
func UnpackCampaign(k uint64) CampaignTotals {
	var t CampaignTotals
	for i := range t {
		t[i] = campaignField(k, i)
	}
	return t
}

// AAOrder lists the bombers (indices into the scenario's list) in the order
// AA fire takes them.
func (r *Raid) AAOrder() []int { return r.order }

// CampaignLimits are the largest totals a campaign of raids raids against
// this target can reach, metric by metric: what a merge checks a campaign
// part's keys against, since a packed key can hold far more (31 factories
// destroyed of a target's 2, 65,535 factors bombing). Losses that stay
// lost are capped by what the scenario has (factories, oil points, AA
// units, bombers, carriers, which sit out the campaign once damaged); the
// rest by raids times the most one raid adds from any state the campaign
// can reach (its chain); for a raid too large to tabulate, which has no
// chain, those are capped by the key's widths only.
func (r *Raid) CampaignLimits(raids int) CampaignTotals {
	rd := &r.Scenario.Raid
	var perRaid CampaignTotals
	grow := func(add CampaignTotals) {
		for k := range perRaid {
			perRaid[k] = max(perRaid[k], add[k])
		}
	}
	if ch := r.Chain(raids); ch != nil {
		for _, cs := range ch {
			for _, a := range cs.Add {
				grow(UnpackCampaign(a))
			}
		}
	} else {
		for k, m := range RaidMetrics {
			perRaid[k] = 1<<m.Bits - 1
		}
	}
	carriers := 0
	for _, b := range rd.Bombers {
		if b.Carrier {
			carriers++
		}
	}
	var lim CampaignTotals
	for k, m := range RaidMetrics {
		lim[k] = min(perRaid[k]*raids, 1<<m.Bits-1)
	}
	lim[1] = min(lim[1], rd.Target.Factories)
	lim[2] = min(lim[2], rd.Target.Oil)
	lim[3] = min(lim[3], len(rd.AA))
	lim[4] = min(lim[4], len(rd.Bombers))
	lim[5] = min(lim[5], carriers)
	return lim
}

// CheckCampaignKey is the error for a packed key past the limits
// (CampaignLimits), naming the first metric past them, or nil.
func CheckCampaignKey(key uint64, limits CampaignTotals) error {
	t := UnpackCampaign(key)
	for k, m := range RaidMetrics {
		if t[k] > limits[k] {
			return fmt.Errorf("campaign key %d holds %d %s; this campaign can reach at most %d", key, t[k], m.Label, limits[k])
		}
	}
	return nil
}
