package benchmarks

import (
	"context"
	"runtime"
	"testing"

	"github.com/wifodds/wifodds/analysis"
	"github.com/wifodds/wifodds/scenario"
	"github.com/wifodds/wifodds/sim"
)

// Each workload at one worker and at every CPU, b.N trials per run, with
// trials/s reported. Compare runs with benchstat:
//
//	go test ./benchmarks -run X -bench . -count 10 > new.txt
//	benchstat old.txt new.txt
func BenchmarkWorkloads(b *testing.B) {
	ws, err := Workloads()
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range ws {
		for _, workers := range []int{1, runtime.NumCPU()} {
			b.Run(w.Name+"/workers="+itoa(workers), func(b *testing.B) {
				b.ResetTimer()
				if err := w.Run(context.Background(), uint64(b.N), workers); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "trials/s")
			})
		}
	}
}

// BenchmarkExactPlain is the exact answer for a plain land combat:
// compile, enumerate and summarise (target: under 50 µs).
func BenchmarkExactPlain(b *testing.B) { benchExact(b, "plain-2d6") }

// BenchmarkExactWildFractional is the exact answer for wild results with
// fractional odds on the 2D6 table, the largest plain dice tree (7,776
// paths; issue 16 target: 100 µs).
func BenchmarkExactWildFractional(b *testing.B) { benchExact(b, "wild-fractional-2d6") }

// BenchmarkExactThreeStrikes is the exact answer for a combat with three
// ground strikes, a naval strike and AA fire: 10,077,696 dice paths, past
// the flat table (issue 16 target: 50 ms). Its pre-combat states are
// tabulated once each rather than every path walked.
func BenchmarkExactThreeStrikes(b *testing.B) {
	s, err := Scenario("strikes-3")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c, err := compile(s)
		if err != nil {
			b.Fatal(err)
		}
		t, run, err := sim.Exact(context.Background(), c, sim.MaxPathBudget, nil)
		if err != nil {
			b.Fatal(err)
		}
		analysis.Summarize(c, t, run)
	}
}

// benchExact times the exact answer for one benchmark scenario.
func benchExact(b *testing.B, name string) {
	s, err := Scenario(name)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := exactAnswer(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlan16 plans one hex with 16 available units, no two alike:
// 65,535 distinct combats (issue 13 target: under 1 s on one core, so run
// it with -cpu 1).
func BenchmarkPlan16(b *testing.B) { benchPlan(b, "plan-16") }

// BenchmarkPlan24 plans one hex with 24 available units in 8 kinds
// (target: under 10 s).
func BenchmarkPlan24(b *testing.B) { benchPlan(b, "plan-24") }

// BenchmarkPlanFront plans three hexes with 12 units, each able to attack
// two of them (target: under 10 s).
func BenchmarkPlanFront(b *testing.B) { benchPlan(b, "plan-front-3x12") }

// BenchmarkBattery500 is a 500-scenario generated battery of plain land
// combats under two CRTs, all exact (issue 17 target: under 2 s on one
// core); it reports the cost per scenario, each compiled and enumerated
// under both tables and compared.
func BenchmarkBattery500(b *testing.B) {
	benchPlan(b, "battery-500")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)/500*1e6, "µs/scenario")
}

func benchPlan(b *testing.B, name string) {
	ws, err := Workloads()
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range ws {
		if w.Name == name {
			if err := w.Run(context.Background(), uint64(b.N), runtime.GOMAXPROCS(0)); err != nil {
				b.Fatal(err)
			}
			return
		}
	}
	b.Fatalf("no workload %s", name)
}

// BenchmarkParseScenario is reading a scenario file, for scale.
func BenchmarkParseScenario(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := Scenario("plain-2d6"); err != nil {
			b.Fatal(err)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestWorkloadsRun(t *testing.T) {
	ws, err := Workloads()
	if err != nil {
		t.Fatal(err)
	}
	if ws[0].Name != LimitName {
		t.Fatal("the limit workload must come first")
	}
	for _, w := range ws {
		r, err := Measure(context.Background(), w, 2, 0.001)
		if err != nil || r.TrialsPerSec <= 0 || r.Trials == 0 {
			t.Errorf("%s: %+v, %v", w.Name, r, err)
		}
	}
	s, err := Scenario("plain-2d6")
	if err != nil {
		t.Fatal(err)
	}
	if err := exactAnswer(s); err != nil {
		t.Fatal(err)
	}
	if _, err := Scenario("strikes-3"); err != nil {
		t.Fatal(err)
	}
	h := Limit(context.Background(), 3*65536+5, 2)
	var n uint64
	for _, c := range h {
		n += c
	}
	if n != 3*65536+5 {
		t.Fatalf("limit ran %d trials", n)
	}
}

// exactAnswer compiles a parsed scenario and computes its exact summary:
// the work behind `wifodds run --exact` once the file is read.
func exactAnswer(s *scenario.Scenario) error {
	c, err := compile(s)
	if err != nil {
		return err
	}
	t, run, err := sim.Exact(context.Background(), c, 0, nil)
	if err != nil {
		return err
	}
	analysis.Summarize(c, t, run)
	return nil
}

// BenchmarkStrikes samples the strikes-3 combat with 0 to 6 ground
// strikes on one worker, in ns per trial: the issue asks that 2 to 6
// strikes stay within 3x of none.
func BenchmarkStrikes(b *testing.B) {
	for n := 0; n <= 6; n++ {
		c, err := Strikes(n)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("strikes="+itoa(n), func(b *testing.B) {
			if _, _, err := sim.Sample(context.Background(), c, sim.Config{Trials: uint64(b.N), Seed: 1, Workers: 1}); err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/trial")
		})
	}
}
