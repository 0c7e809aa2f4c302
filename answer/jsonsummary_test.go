package answer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/combat"
	"github.com/wifodds/wifodds/crt"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// sameJSON fails unless the hand-written encoder gives encoding/json's
// bytes for s (or both refuse it), and AppendJSON those bytes with DEL and
// the C1 controls escaped.
func sameJSON(t *testing.T, what string, s *analysis.Summary) {
	t.Helper()
	want, werr := appendReflectJSON(nil, s)
	got, gerr := appendSummaryJSON(nil, s)
	if all, err := AppendJSON(nil, s); werr == nil && (err != nil || !bytes.Equal(all, escapeJSONControls(want))) {
		t.Fatalf("%s: AppendJSON is not encoding/json's bytes with DEL and C1 escaped (error %v)", what, err)
	}
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: encoding/json error %v, hand-written encoder error %v", what, werr, gerr)
	}
	if werr != nil {
		return
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		lo := max(0, i-80)
		t.Fatalf("%s: bytes differ at %d:\n got …%s…\nwant …%s…", what, i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
	}
}

// The run answer of every example land combat (and every combat the
// tests and benchmarks keep) is encoding/json's to the byte: exact with
// the working, replayed dice, and Monte Carlo with a seed (which sets the
// trials, seed, workers and chunk members).
func TestSummaryJSONExamples(t *testing.T) {
	var files []string
	for _, g := range []string{"../examples/*.yaml", "../combat/testdata/*.yaml", "../benchmarks/scenarios/*.yaml"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	air, err := crt.BuiltinAir("strategic")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(p, data)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind == scenario.Bombardment || s.IsPlan() || s.IsOperation() {
			continue
		}
		tb, err := crt.Builtin(s.CRT)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		c, err := combat.CompileWith(s, tb, air, combat.Options{Explain: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		ctx := context.Background()
		exact, err := analysis.RunCombat(ctx, c, analysis.Request{Engine: analysis.Exact, Replay: s.Dice})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		exact.Working = combat.Lines(c.Steps)
		sameJSON(t, p+" exact", exact)
		if len(s.Dice) == 0 {
			// Replay the first roll of each die the combat could roll.
			replayed, err := analysis.RunCombat(ctx, c, analysis.Request{Engine: analysis.Exact, Replay: []int{1, 1, 1, 1, 1, 1}})
			if err == nil {
				if replayed.Replay == nil {
					t.Fatalf("%s: a replay with no replay member", p)
				}
				sameJSON(t, p+" replayed", replayed)
			}
		}
		mc, err := analysis.RunCombat(ctx, c, analysis.Request{Engine: analysis.MonteCarlo, Sample: sim.Config{Trials: 3000, Seed: 7, Workers: 2}})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		sameJSON(t, p+" monte carlo", mc)
		checked++
	}
	if checked < 12 {
		t.Fatalf("checked %d land combats; the examples hold more", checked)
	}
}

// summaryGen fills every field of a value by reflection, so a field added
// to analysis.Summary (or a type it holds) that the hand-written encoder
// does not write makes the comparison fail. Pointers and slices are
// sometimes nil and slices sometimes empty, to cover omitempty and null;
// strings and floats come from lists of the hard cases.
type summaryGen struct {
	rng     *rand.Rand
	strs    []string
	floats  []float64
	unknown []string // kinds of field it cannot fill
}

var hardStrings = []string{"", "plain", "Düsseldorf", "<b>&amp;</b>", "quote \" back \\ slash", "tab\tnew\nline\rcr\bbs\ffeed\x00\x01\x1f\x7f",
	"\u2028\u2029", "bad utf-8 \xff\xfe here", "truncated \xe2\x82", "emoji 😀", "3:1", "→ 4–5"}

var hardFloats = []float64{0, math.Copysign(0, -1), 1, -1, 0.1, 1.0 / 3, 2.0 / 3, 1e-6, 9.99999e-7, 1e-7, 1.5e-9, 1e-300, 5e-324,
	1e20, 1e21, 9.999999999999999e20, 1.2345e22, math.MaxFloat64, -1e-7, -1e21, 123456789, 0.000123, 1e-10, 12.5, 100}

func (g *summaryGen) float() float64 {
	switch g.rng.IntN(3) {
	case 0:
		return g.floats[g.rng.IntN(len(g.floats))]
	case 1:
		return g.rng.Float64()
	default: // any finite value, every exponent
		for {
			f := math.Float64frombits(g.rng.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	}
}

func (g *summaryGen) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(g.strs[g.rng.IntN(len(g.strs))])
	case reflect.Float64:
		v.SetFloat(g.float())
	case reflect.Bool:
		v.SetBool(g.rng.IntN(2) == 0)
	case reflect.Int:
		if g.rng.IntN(3) > 0 {
			v.SetInt(g.rng.Int64N(2000) - 1000)
		}
	case reflect.Uint64:
		switch g.rng.IntN(3) {
		case 0:
		case 1:
			v.SetUint(g.rng.Uint64N(1000))
		default:
			v.SetUint(g.rng.Uint64())
		}
	case reflect.Pointer:
		if g.rng.IntN(3) > 0 {
			p := reflect.New(v.Type().Elem())
			g.fill(p.Elem())
			v.Set(p)
		}
	case reflect.Slice:
		switch g.rng.IntN(4) {
		case 0:
		case 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			n := 1 + g.rng.IntN(4)
			s := reflect.MakeSlice(v.Type(), n, n)
			for i := range n {
				g.fill(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				g.fill(v.Field(i))
			}
		}
	default:
		g.unknown = append(g.unknown, v.Type().String())
	}
}

func (g *summaryGen) summary(t *testing.T) *analysis.Summary {
	var s analysis.Summary
	g.fill(reflect.ValueOf(&s).Elem())
	if len(g.unknown) > 0 {
		t.Fatalf("the generator cannot fill fields of kinds %v: teach it (and the encoder) these", g.unknown)
	}
	return &s
}

// Generated summaries, every field filled with hard strings and floats
// of every exponent, are encoding/json's to the byte.
func TestSummaryJSONGenerated(t *testing.T) {
	g := &summaryGen{rng: rand.New(rand.NewPCG(25, 3)), strs: hardStrings, floats: hardFloats}
	for i := range 3000 {
		sameJSON(t, fmt.Sprintf("generated summary %d", i), g.summary(t))
	}
}

// A summary JSON cannot hold (a NaN or an infinity anywhere) is refused,
// as encoding/json refuses it, and nothing is appended.
func TestSummaryJSONRefusesNaN(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		g := &summaryGen{rng: rand.New(rand.NewPCG(1, 2)), strs: hardStrings, floats: hardFloats}
		s := g.summary(t)
		s.Means.DefenderFactorsLost.SE = f
		sameJSON(t, "NaN", s)
		b, err := AppendJSON([]byte("kept"), s)
		var uv *json.UnsupportedValueError
		if !errors.As(err, &uv) || string(b) != "kept" {
			t.Fatalf("%v: got %q, %v; want the input back and an UnsupportedValueError", f, b, err)
		}
		s.Means.DefenderFactorsLost.SE = 0
		s.Results = analysis.Keyed[float64]{{Key: "AR", Value: f}}
		sameJSON(t, "NaN in a keyed", s)
	}
}

// A nil summary is written as encoding/json writes it (null).
func TestSummaryJSONNil(t *testing.T) {
	var s *analysis.Summary
	want, _ := appendReflectJSON(nil, s)
	got, err := AppendJSON(nil, s)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("got %q, %v; want %q", got, err, want)
	}
}

// FuzzSummaryJSON: a summary generated from the seed, with the fuzzer's
// strings and float among the values, is encoding/json's to the byte.
func FuzzSummaryJSON(f *testing.F) {
	for i, s := range hardStrings {
		f.Add(uint64(i), s, s+"x", hardFloats[i%len(hardFloats)])
	}
	f.Fuzz(func(t *testing.T, seed uint64, s1, s2 string, x float64) {
		floats := hardFloats
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			floats = append(slices.Clone(hardFloats), x, x, x, x, x, x, x, x)
		}
		g := &summaryGen{rng: rand.New(rand.NewPCG(seed, 25)), strs: []string{s1, s2, s1 + s2, "plain"}, floats: floats}
		sameJSON(t, "fuzzed summary", g.summary(t))
	})
}

// BenchmarkSummaryJSON compares the hand-written encoder with
// encoding/json on the plain 2d6 combat's exact answer.
func BenchmarkSummaryJSON(b *testing.B) {
	data, err := os.ReadFile("../benchmarks/scenarios/plain-2d6.yaml")
	if err != nil {
		b.Fatal(err)
	}
	s, err := scenario.Parse("plain-2d6.yaml", data)
	if err != nil {
		b.Fatal(err)
	}
	tb, _ := crt.Builtin(s.CRT)
	c, err := combat.Compile(s, tb, nil)
	if err != nil {
		b.Fatal(err)
	}
	sum, err := analysis.RunCombat(context.Background(), c, analysis.Request{Engine: analysis.Exact})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 16<<10)
	b.Run("handwritten", func(b *testing.B) {
		for b.Loop() {
			buf, _ = AppendJSON(buf[:0], sum)
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			buf, _ = appendReflectJSON(buf[:0], sum)
		}
	})
}
