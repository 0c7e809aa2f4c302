package battery

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/stats"
)

// testPart runs a small generated battery (4 scenarios under two CRTs,
// exact or sampled) and returns shard 1 of 1 as a sealed part.
func testPart(t testing.TB, mc bool) *Part {
	t.Helper()
	s, err := scenario.Parse("t.yaml", []byte(template))
	if err != nil {
		t.Fatal(err)
	}
	open := func(ref string) (*crt.Table, error) { return crt.Builtin(ref) }
	a1, _ := ParseAxis("attack=6..7")
	a2, _ := ParseAxis("terrain=clear,forest")
	items, _, err := Generate(s, []Axis{a1, a2}, open, nil)
	if err != nil {
		t.Fatal(err)
	}
	req := analysis.Request{Engine: analysis.Exact}
	if mc {
		req = analysis.Request{Engine: analysis.MonteCarlo, Sample: sim.Config{Trials: 5000, Seed: 3, Workers: 1}}
	}
	cfg := Config{Variants: []string{"std=crt=standard", "2d6=crt=2d6"}, Request: req,
		Open: func(_ *scenario.Scenario, ref string) (*crt.Table, []byte, error) {
			tb, err := crt.Builtin(ref)
			if err != nil {
				return nil, nil, err
			}
			src, err := crt.BuiltinSource(ref)
			return tb, src, err
		},
		Air: func(*scenario.Scenario) (*crt.AirTables, error) { return nil, nil }}
	results, hash, err := Run(context.Background(), items, cfg, Shard{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPart("t", hash, cfg, Shard{1, 1}, len(results), results)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func encode(t testing.TB, p *Part) []byte {
	t.Helper()
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A part as a shard writes it reads back whole and merges, exact and
// sampled.
func TestReadPartRoundTrip(t *testing.T) {
	for _, mc := range []bool{false, true} {
		p := testPart(t, mc)
		got, err := ReadPart("p.json", bytes.NewReader(encode(t, p)))
		if err != nil {
			t.Fatalf("mc=%v: %v", mc, err)
		}
		if got.Digest != p.Digest || len(got.Results) != 4 {
			t.Errorf("mc=%v: read back %d results, digest %s", mc, len(got.Results), got.Digest)
		}
		if _, err := Merge(map[string]*Part{"p.json": got}); err != nil {
			t.Errorf("mc=%v: %v", mc, err)
		}
	}
}

// Issue 23 item 6: a part edited by hand (a figure, a name, a variant's
// table, the method) is refused with the file's name; its digest no
// longer matches.
func TestReadPartRefusesEdits(t *testing.T) {
	data := string(encode(t, testPart(t, false)))
	p0 := testPart(t, false).Results[0].Variants[0].Metrics["attacker_face_up"].P
	num, _ := json.Marshal(p0)
	for _, c := range []struct{ name, old, new string }{
		{"a probability raised", `"p": ` + string(num), `"p": 0.9666666666666667`},
		{"a probability made negative", `"p": ` + string(num), `"p": -5`},
		{"a scenario's name", `"name": "t attack=6`, `"name": "u attack=6`},
		{"a variant's table", `"crt": "2d6"`, `"crt": "standard"`},
		{"the method", `"method": "exact"`, `"method": "monte-carlo"`},
	} {
		if !strings.Contains(data, c.old) {
			t.Fatalf("%s: %q is not in the part", c.name, c.old)
		}
		edited := strings.Replace(data, c.old, c.new, 1)
		_, err := ReadPart("part2.json", strings.NewReader(edited))
		if err == nil || !strings.Contains(err.Error(), "part2.json: its content does not match its digest") {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}

// A part whose figures are out of range is refused even when its digest
// was recomputed after the edit: the checks do not rest on the digest.
func TestReadPartRefusesValues(t *testing.T) {
	for _, c := range []struct {
		name string
		mc   bool
		edit func(p *Part)
		want string
	}{
		{"a probability above 1", false, func(p *Part) { setP(p, 0, 0, "hex_taken", 1.5) }, "hex_taken: 1.5 is outside 0..1"},
		{"a negative probability", false, func(p *Part) { setP(p, 0, 0, "breakthrough", -5) }, "breakthrough: -5 is outside 0..1"},
		{"a negative loss", false, func(p *Part) { setP(p, 1, 0, "attacker_units_lost", -1) }, "attacker_units_lost: -1 is outside"},
		{"a figure not matching its difference", false, func(p *Part) { setP(p, 0, 1, "hex_taken", 0.9666666666666667) }, "the difference in hex_taken"},
		{"a method the engine does not allow", false, func(p *Part) { p.Results[2].Method = "monte-carlo" }, "scenario 3: method monte-carlo, but the battery ran exact"},
		{"an unknown method", false, func(p *Part) { p.Engine, p.Results[2].Method = "auto", "guess" }, `scenario 3: method "guess": want`},
		{"an unknown engine", false, func(p *Part) { p.Engine = "fast" }, `engine "fast"`},
		{"a table other than the variant's", false, func(p *Part) { p.Results[1].Variants[1].CRT = "standard" }, `variant 2d6 used table "standard", but it names "2d6"`},
		{"a variant the battery did not run", false, func(p *Part) { p.Results[0].Variants[1].Name = "alt" }, `variant 2 is "alt", but the battery's is "2d6"`},
		{"a variant missing", false, func(p *Part) { p.Results[0].Variants = p.Results[0].Variants[:1] }, "1 variants, but the battery ran 2"},
		{"variants not named", false, func(p *Part) { p.Variants = []string{"std", "2d6=crt=2d6"} }, `variant "std": want NAME=OVERRIDES`},
		{"an exact figure with an interval", false, func(p *Part) {
			e := p.Results[0].Variants[0].Metrics["hex_taken"]
			e.Hi = 1
			p.Results[0].Variants[0].Metrics["hex_taken"] = e
		}, "an exact figure"},
		{"a missing metric", false, func(p *Part) { delete(p.Results[0].Variants[1].Metrics, "breakthrough") }, "4 metrics, want 5"},
		{"an unknown metric", false, func(p *Part) {
			delete(p.Results[0].Variants[1].Metrics, "breakthrough")
			p.Results[0].Variants[1].Metrics["luck"] = stats.Exact(0)
		}, "no breakthrough"},
		{"a baseline with a difference", false, func(p *Part) { p.Results[0].Variants[0].Diff = p.Results[0].Variants[1].Diff }, "the baseline has a difference"},
		{"an interval leaving its estimate", true, func(p *Part) {
			e := p.Results[0].Variants[0].Metrics["hex_taken"]
			e.Lo = e.P + 0.01
			p.Results[0].Variants[0].Metrics["hex_taken"] = e
		}, "lies outside its interval"},
		{"a sampled comparison with no trials", true, func(p *Part) { p.Results[1].Trials = 0 }, "no trials"},
		// Red-team finding F5: values no shard writes, with the digest
		// recomputed: a 309-digit expected loss, more units lost than a
		// side lists, trials past the CLI's cap, overrides the CLI refuses.
		{"a huge expected loss", false, func(p *Part) { setP(p, 0, 1, "attacker_units_lost", 1.7e308) }, "attacker_units_lost: 1.7e+308 is outside 0..64"},
		{"more units lost than a side lists", false, func(p *Part) { setP(p, 0, 0, "defender_units_lost", 65) }, "defender_units_lost: 65 is outside 0..64"},
		{"a huge interval on a loss", true, func(p *Part) {
			e := p.Results[0].Variants[0].Metrics["attacker_units_lost"]
			e.Hi = 1e300
			p.Results[0].Variants[0].Metrics["attacker_units_lost"] = e
		}, "wider than losses of 64 units allow"},
		{"trials past the cap", true, func(p *Part) { p.Results[1].Trials = 1<<64 - 1 }, "a sampled comparison of 18446744073709551615 trials: at most 1125899906842624"},
		{"a modifier out of range", false, func(p *Part) { p.Variants[1] = "2d6=crt=2d6,modifier=99999999999" }, "variant 2d6: override \"modifier=99999999999\": modifier is a whole number from -30 to 30"},
		{"an option twice", false, func(p *Part) { p.Variants[1] = "2d6=crt=2d6,options=wild-results+wild-results" }, "option wild-results is named twice"},
		{"a variant name of two lines", false, func(p *Part) { p.Variants[1] = "2d6\nforged=crt=2d6" }, "U+000A"},
	} {
		p := testPart(t, c.mc)
		c.edit(p)
		mustSeal(t, p)
		_, err := ReadPart("p.json", bytes.NewReader(encode(t, p)))
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "p.json: ") {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func setP(p *Part, scenario, variant int, metric string, x float64) {
	m := p.Results[scenario].Variants[variant].Metrics
	m[metric] = stats.Exact(x)
}

// Merge refuses scenarios that disagree on their variants or sampled
// scenarios that disagree on their trials, naming the part.
func TestMergeRefusesDisagreeingScenarios(t *testing.T) {
	p := testPart(t, true)
	p.Results[2].Trials++
	if _, err := Merge(map[string]*Part{"p.json": p}); err == nil || !strings.Contains(err.Error(), "p.json: scenario 3 ran 5001 trials, scenario 1 5000") {
		t.Errorf("trials: got %v", err)
	}
	p = testPart(t, false)
	p.Results[3].Variants[1].Name = "alt"
	if _, err := Merge(map[string]*Part{"p.json": p}); err == nil || !strings.Contains(err.Error(), "variants [std alt], not the battery's [std 2d6]") {
		t.Errorf("names: got %v", err)
	}
}

// A part claiming an enormous battery is refused at once: ReadPart counts
// a shard's scenarios without walking every index.
func TestReadPartHugeClaims(t *testing.T) {
	for _, c := range []struct {
		shard, shards, scenarios int
		want                     string
	}{
		{1, MaxShards, math.MaxInt, "results, want"},
		{1, MaxShards + 1, 3, "not a valid part"},
		{2, 3, 1, ""}, // a shard past the battery's end holds nothing (null)
	} {
		p := &Part{Format: PartFormat, Battery: "b", Hash: "h", Shard: c.shard, Shards: c.shards, Scenarios: c.scenarios,
			Variants: []string{"a=crt=2d6"}, Engine: "auto"}
		mustSeal(t, p)
		_, err := ReadPart("p.json", bytes.NewReader(encode(t, p)))
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%+v: got %v", c, err)
		}
	}
}

// Damaged JSON: unknown, repeated or missing fields and anything after
// the part are refused.
func TestReadPartRefusesDamagedJSON(t *testing.T) {
	data := string(encode(t, testPart(t, false)))
	for name, c := range map[string]struct{ doc, want string }{
		"an unknown field":   {strings.Replace(data, `"shards"`, `"shardz"`, 1), `unknown field "shardz"`},
		"a repeated field":   {strings.Replace(data, `"shards": 1,`, `"shards": 1, "shards": 1,`, 1), `"shards" given twice`},
		"a missing field":    {strings.Replace(data, `"scenarios": 4,`, ``, 1), `no "scenarios" field`},
		"more after the end": {data + "{}", "more after the part's end"},
		"cut short":          {data[:len(data)/2], "unexpected EOF"},
		"results not a list": {`{"results": 3}`, "results: found 3, want a list"},
		"an unknown result field": {strings.Replace(data, `"method": "exact"`, `"method": "exact", "luck": 1`, 1),
			`unknown field "luck"`},
	} {
		_, err := ReadPart("p.json", strings.NewReader(c.doc))
		if err == nil || !strings.Contains(err.Error(), "p.json: not a battery part") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", name, err, c.want)
		}
	}
}

// Issue 23 item 5: ReadPart streams its input. Reading a part allocates
// about what its results take decoded, not the file's bytes again and
// the decoder's copy of them on top: on this 10 MB part a whole-file
// read and decode allocates about 6.5 times the part's size, the
// streaming read about 1.5 times.
func TestReadPartStreams(t *testing.T) {
	p := testPart(t, true)
	one := p.Results[0]
	const n = 4000
	p.Scenarios, p.Results = n, make([]Result, n)
	for i := range p.Results {
		p.Results[i] = one
		p.Results[i].Index = i
	}
	mustSeal(t, p)
	data := encode(t, p)
	var got *Part
	var err error
	used := allocated(func() { got, err = ReadPart("p.json", bytes.NewReader(data)) })
	if err != nil {
		t.Fatal(err)
	}
	ratio := float64(used) / float64(len(data))
	t.Logf("a %d-byte part: %.2f bytes allocated a byte", len(data), ratio)
	if ratio > 2.5 {
		t.Errorf("reading a %d-byte part allocated %.2f times its size; a streaming read needs about 1.5", len(data), ratio)
	}
	if len(got.Results) != n {
		t.Errorf("%d results", len(got.Results))
	}
}

// FuzzPartValues changes one value of a real part (a figure, an interval's
// end, a difference, the trials, the method, a name, a table, the engine)
// and seals it again, so the digest matches and the value checks are what
// is exercised. Nothing panics, and whatever ReadPart accepts has every
// figure in range and merges.
func FuzzPartValues(f *testing.F) {
	var parts [2][]byte
	for i, mc := range []bool{false, true} {
		b, err := json.Marshal(testPart(f, mc))
		if err != nil {
			f.Fatal(err)
		}
		parts[i] = b
	}
	f.Add(false, uint8(0), uint8(1), uint8(4), uint8(0), 0.9666666666666667, uint64(0), "")
	f.Add(false, uint8(2), uint8(0), uint8(0), uint8(0), -5.0, uint64(0), "")
	f.Add(true, uint8(1), uint8(1), uint8(2), uint8(3), 0.25, uint64(0), "")
	f.Add(true, uint8(3), uint8(0), uint8(1), uint8(4), 0.0, uint64(math.MaxUint64), "")
	f.Add(false, uint8(0), uint8(0), uint8(0), uint8(5), 0.0, uint64(0), "monte-carlo")
	f.Add(true, uint8(0), uint8(1), uint8(0), uint8(6), 0.0, uint64(0), "std")
	f.Add(false, uint8(2), uint8(1), uint8(0), uint8(8), 0.0, uint64(0), "standard")
	f.Add(true, uint8(0), uint8(0), uint8(0), uint8(9), 0.0, uint64(0), "auto")
	f.Fuzz(func(t *testing.T, mc bool, scen, variant, metric, field uint8, x float64, n uint64, text string) {
		var p Part
		if err := json.Unmarshal(parts[map[bool]int{false: 0, true: 1}[mc]], &p); err != nil {
			t.Fatal(err)
		}
		r := &p.Results[int(scen)%len(p.Results)]
		v := &r.Variants[int(variant)%len(r.Variants)]
		m := analysis.CompareMetrics[int(metric)%len(analysis.CompareMetrics)].Name
		set := func(fs map[string]stats.Estimate, f func(e *stats.Estimate)) {
			if fs != nil {
				e := fs[m]
				f(&e)
				fs[m] = e
			}
		}
		switch field % 10 {
		case 0:
			set(v.Metrics, func(e *stats.Estimate) { e.P = x })
		case 1:
			set(v.Metrics, func(e *stats.Estimate) { e.Lo = x })
		case 2:
			set(v.Metrics, func(e *stats.Estimate) { e.Hi = x })
		case 3:
			set(v.Diff, func(e *stats.Estimate) { e.P = x })
		case 4:
			r.Trials = n
		case 5:
			r.Method = text
		case 6:
			v.Name = text
		case 7:
			delete(v.Metrics, m)
		case 8:
			v.CRT = text
		case 9:
			p.Engine = text
		}
		if err := p.Seal(); err != nil {
			return // NaN and infinities have no JSON
		}
		data, err := json.Marshal(&p)
		if err != nil {
			t.Fatalf("sealed, but cannot be written: %v", err)
		}
		got, err := ReadPart("p.json", bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range got.Results {
			if r.Method != MethodExact && r.Method != MethodMonteCarlo || got.Engine != "auto" && r.Method != got.Engine {
				t.Fatalf("accepted method %q under engine %q", r.Method, got.Engine)
			}
			if r.Variants[1].CRT != "2d6" {
				t.Fatalf("accepted variant 2d6 on table %q", r.Variants[1].CRT)
			}
			base := r.Variants[0].Metrics
			for _, v := range r.Variants {
				for _, cm := range analysis.CompareMetrics {
					e, ok := v.Metrics[cm.Name]
					if !ok || !(e.Lo <= e.P && e.P <= e.Hi) || !cm.Mean && (e.Lo < 0 || e.Hi > 1) || cm.Mean && e.P < 0 {
						t.Fatalf("accepted %s %s = %+v (present %v)", v.Name, cm.Name, e, ok)
					}
					if d := v.Diff[cm.Name].P - (e.P - base[cm.Name].P); v.Diff != nil && math.Abs(d) > 1e-6 {
						t.Fatalf("accepted %s's difference in %s off by %v", v.Name, cm.Name, d)
					}
				}
			}
		}
		if _, err := Merge(map[string]*Part{"p.json": got}); err != nil {
			t.Fatalf("a part ReadPart accepts does not merge: %v", err)
		}
	})
}

func mustSeal(t testing.TB, p *Part) {
	t.Helper()
	if err := p.Seal(); err != nil {
		t.Fatal(err)
	}
}

// Red-team finding F6: one long string in a part (the battery's name, or
// any name, sealed again so the digest matches) cost about four times its
// size before it was refused. It is refused as soon as it passes
// MaxPartString, having buffered little of it; a part with names just
// under the bound still reads.
func TestReadPartLongStringRefused(t *testing.T) {
	for _, where := range []string{"battery", "variant"} {
		p := testPart(t, false)
		long := strings.Repeat("a", 32<<20)
		if where == "battery" {
			p.Battery = long
		} else {
			p.Variants[0] = long + "=crt=standard"
		}
		mustSeal(t, p)
		data := encode(t, p)
		var err error
		used := allocated(func() { _, err = ReadPart("p.json", bytes.NewReader(data)) })
		if err == nil || !strings.Contains(err.Error(), "a text longer than 1048576 bytes") {
			t.Fatalf("a %d-byte %s name: %v", len(long), where, err)
		}
		if used > 8<<20 {
			t.Errorf("refusing a %d-byte %s name allocated %d bytes", len(long), where, used)
		}
	}
	p := testPart(t, false)
	p.Battery = strings.Repeat("a", MaxPartString-2) // the quotes count
	mustSeal(t, p)
	if _, err := ReadPart("p.json", bytes.NewReader(encode(t, p))); err != nil {
		t.Errorf("a name of %d bytes: %v", MaxPartString-2, err)
	}
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
