package benchmarks

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/wifodds/wifodds/combat"
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

// BenchmarkLimits runs each sampling workload's limit kernel, b.N trials,
// for comparison with BenchmarkWorkloads.
func BenchmarkLimits(b *testing.B) {
	ws, err := Workloads()
	if err != nil {
		b.Fatal(err)
	}
	for _, w := range ws {
		if w.Limit == nil {
			continue
		}
		b.Run(w.Name+"/workers=1", func(b *testing.B) {
			if err := w.Limit(context.Background(), uint64(b.N), 1); err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkExactPlain is the exact answer for a plain land combat:
// compile, enumerate and summarise (issue 16 target: 5 µs).
func BenchmarkExactPlain(b *testing.B) { benchExact(b, "plain-2d6") }

// BenchmarkExactWildFractional is the exact answer for wild results with
// fractional odds on the 2D6 table, the largest plain dice tree (7,776
// paths; issue 16 target: 100 µs).
func BenchmarkExactWildFractional(b *testing.B) { benchExact(b, "wild-fractional-2d6") }

// BenchmarkExactThreeStrikes is the exact answer for a combat with three
// ground strikes, a naval strike and AA fire: 10,077,696 dice paths, past
// the flat table (issue 16 target: 50 ms). Its pre-combat states are
// tabulated once each rather than every path walked.
func BenchmarkExactThreeStrikes(b *testing.B) { benchExact(b, "strikes-3") }

// benchExact times the exact answer for one benchmark scenario.
func benchExact(b *testing.B, name string) {
	b.ReportAllocs()
	s, err := Scenario(name)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := ExactAnswer(context.Background(), s); err != nil {
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

// BenchmarkPlanHex24 plans one hex with 24 available units, no two
// alike (issue 25 target: under 0.1 s).
func BenchmarkPlanHex24(b *testing.B) { benchPlan(b, "plan-hex-24") }

// BenchmarkPlanHex40 plans one hex with 40 available units, no two
// alike (issue 25 target: under 1 s).
func BenchmarkPlanHex40(b *testing.B) { benchPlan(b, "plan-hex-40") }

// BenchmarkPlanHex60 plans one hex with 60 units and support to choose
// from, no two alike (issue 25 target: under 5 s and 256 MiB).
func BenchmarkPlanHex60(b *testing.B) { benchPlan(b, "plan-hex-60") }

// BenchmarkPlanFront plans three hexes with 12 units, each able to attack
// two of them (target: under 10 s).
func BenchmarkPlanFront(b *testing.B) { benchPlan(b, "plan-front-3x12") }

// BenchmarkPlanFront4x16 plans four hexes with 16 available units, no two
// alike, each able to attack every hex: the largest cut of issue 25's
// 4x24 front the pruned search answers within 256 MiB (a workload of
// `wifodds bench` with our own 2 s bar, the for 4x24, so the bench
// shows what a second worker gives a front).
func BenchmarkPlanFront4x16(b *testing.B) { benchPlan(b, "plan-front-4x16") }

// BenchmarkPlanFront4x24 plans issue 25's front: four hexes, 24 available
// units, no two alike, each able to attack every hex (target: under 2 s;
// planned by deciding hexes, docs/planner.md).
func BenchmarkPlanFront4x24(b *testing.B) { benchPlan(b, "plan-front-4x24") }

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
	for _, w := range ws {
		r, err := Measure(context.Background(), w, 2, 0.001)
		if err != nil || r.TrialsPerSec <= 0 || r.Trials == 0 || r.Ratio() <= 0 {
			t.Errorf("%s: %+v, %v", w.Name, r, err)
		}
		if w.Limit == nil && !w.Answer {
			t.Errorf("%s: a sampling workload needs a limit kernel", w.Name)
		}
		if r.Pairs < minPairs || len(r.Samples) != r.Pairs {
			t.Errorf("%s: %d pairs, %d samples", w.Name, r.Pairs, len(r.Samples))
		}
	}
}

// Each limit kernel does the work it stands for: its histograms hold
// every trial asked for (one test at a time reads the shared sink).
func TestKernelsRunTheirTrials(t *testing.T) {
	ws, err := Workloads()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Limit == nil {
			continue
		}
		want := uint64(3*sim.ChunkSize + 5)
		if w.Answer {
			want = 7
		}
		before := sink.Load()
		if err := w.Limit(context.Background(), want, 2); err != nil {
			t.Fatal(err)
		}
		if n := sink.Load() - before; n != want {
			t.Errorf("%s: the kernel tallied %d trials of %d", w.Name, n, want)
		}
	}
}

// The gate fails a workload that falls below its threshold, and passes it
// at full speed: the slowed copy of plain-2d6 does each trial's work 64
// times. Both thresholds sit about six times from the ratios expected
// (about 0.5 and 0.008), so a loaded host (CI runs packages side by side)
// cannot move either across.
func TestGateFailsASlowedWorkload(t *testing.T) {
	ws, err := Workloads()
	if err != nil {
		t.Fatal(err)
	}
	var plain Workload
	for _, w := range ws {
		if w.Name == "plain-2d6" {
			plain = w
		}
	}
	// 0.4 s of paired slices each: on a loaded host (CI runs packages in
	// parallel) three pairs were too few for a stable median.
	slowed := plain
	slowed.Name = "plain-2d6-slowed"
	slowed.Run = func(ctx context.Context, trials uint64, workers int) error { return plain.Run(ctx, 64*trials, workers) }
	ctx := context.Background()
	set := []Workload{plain, slowed}
	var rs []Result
	for _, w := range set {
		r, err := Measure(ctx, w, 1, 0.4)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	failures, err := Gate(ctx, set, rs, map[string]float64{"plain-2d6": 0.06, "plain-2d6-slowed": 0.06}, 1, 0.4)
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) != 1 || !strings.Contains(failures[0], "plain-2d6-slowed: median ratio to limit") {
		t.Fatalf("failures %q, want the slowed workload's alone (ratios %.2f, %.2f)", failures, rs[0].Ratio(), rs[1].Ratio())
	}
	if failures, _ := Gate(ctx, set, rs, map[string]float64{"no-such": 1}, 1, 0.02); len(failures) != 1 {
		t.Fatalf("an unknown workload in the thresholds: %q", failures)
	}
}

// Strikes compiles the strikes-3 combat with n ART making ground strikes
// (0 to 6) instead of three: the workloads behind the issue's "no cliff
// between 0 and 6 pre-combat strikes" (docs/performance.md).
func Strikes(n int) (*combat.Combat, error) {
	s, err := Scenario("strikes-3")
	if err != nil {
		return nil, err
	}
	var units []scenario.Unit
	var strike scenario.Unit
	for _, u := range s.Attacker.Units {
		if u.Role == scenario.RoleStrike {
			strike = u
			continue
		}
		units = append(units, u)
	}
	for i := range n {
		u := strike
		u.Name = fmt.Sprintf("strike %d", i+1)
		u.Factors = float64(3 + i%3)
		units = append(units, u)
	}
	s.Attacker.Units = units
	return compile(s)
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

// A measurement reports the medians of its pairs and the quartiles of
// their ratios; an answer without a limit kernel reports its ratio to its
// target.
func TestSummariseTakesMedians(t *testing.T) {
	r := Result{Samples: []Sample{{10, 5}, {20, 5}, {10, 40}, {5, 5}, {10, 8}}}
	r.summarise(Workload{Limit: func(context.Context, uint64, int) error { return nil }})
	// Ratios 0.5, 0.25, 4, 1, 0.8: median 0.8, quartiles 0.5 and 1.
	if r.Pairs != 5 || r.NsPerTrial != 10 || r.LimitNsPerTrial != 5 || r.RatioToLimit != 0.8 || r.RatioQ1 != 0.5 || r.RatioQ3 != 1 {
		t.Errorf("sampling: %+v", r)
	}
	a := Result{Samples: []Sample{{Ns: 2000}, {Ns: 1000}, {Ns: 4000}, {Ns: 3000}}}
	a.summarise(Workload{Answer: true, TargetSeconds: 4e-6})
	// Ratios 2, 4, 1, 4/3: median (4/3+2)/2, the time's median 2.5 µs.
	if a.SecondsPerAnswer != 2.5e-6 || a.RatioToLimit != 0 || math.Abs(a.Ratio()-5.0/3) > 1e-12 || a.RatioQ1 != 1.25 {
		t.Errorf("answer: %+v", a)
	}
}

// BenchmarkExactPlainLimit is the limit kernel of BenchmarkExactPlain: a
// minimal enumerator giving the same summary (exactlimit.go).
func BenchmarkExactPlainLimit(b *testing.B) {
	s, err := Scenario("plain-2d6")
	if err != nil {
		b.Fatal(err)
	}
	limit, err := exactLimit(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if err := limit(context.Background(), uint64(b.N), 1); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkExactCampaign is the exact answer for three night raids
// (benchmarks/scenarios/night-raid-campaign.yaml): compile, chain,
// dynamic programme and summary (issue 25 target: 1.5 ms).
func BenchmarkExactCampaign(b *testing.B) {
	b.ReportAllocs()
	benchPlan(b, "exact-campaign-3")
}

// Measure takes a workload and its limit in turns, in short slices, each
// pair's first side alternating so a drift in the host's speed favours
// neither; calibration runs come first.
func TestMeasureAlternatesSlices(t *testing.T) {
	// The kernels advance a clock of the test's own by exactly their
	// time a trial, so the ratios do not depend on the host's load.
	now := time.Unix(0, 0)
	clock = func() time.Time { return now }
	t.Cleanup(func() { clock = time.Now })
	var calls []string
	side := func(name string, ns float64) KernelFunc {
		return func(ctx context.Context, trials uint64, _ int) error {
			calls = append(calls, name)
			now = now.Add(time.Duration(float64(trials) * ns))
			return nil
		}
	}
	w := Workload{Name: "fake", Run: side("w", 20), Limit: side("l", 10)}
	r, err := Measure(context.Background(), w, 1, 0.12)
	if err != nil {
		t.Fatal(err)
	}
	// Calibration: runs of the workload, then of the limit, until each
	// fills a slice.
	k := 0
	for k < len(calls) && calls[k] == "w" {
		k++
	}
	for k < len(calls) && calls[k] == "l" {
		k++
	}
	pairs := calls[k:]
	if len(pairs) != 2*r.Pairs || r.Pairs < minPairs {
		t.Fatalf("%d calls after calibration for %d pairs: %v", len(pairs), r.Pairs, calls)
	}
	for p := 0; p < r.Pairs; p++ {
		want := [2]string{"w", "l"}
		if p%2 == 1 {
			want = [2]string{"l", "w"}
		}
		if got := [2]string{pairs[2*p], pairs[2*p+1]}; got != want {
			t.Fatalf("pair %d ran %v, want %v (all: %v)", p, got, want, calls)
		}
	}
	// The limit takes half the workload's time a trial: each pair's ratio
	// is 0.5, and so is the median, its quartiles and each side's time.
	for _, s := range r.Samples {
		if math.Abs(s.Ns-20) > 1e-6 || math.Abs(s.LimitNs-10) > 1e-6 {
			t.Errorf("a pair measured %v ns and %v ns a trial, want 20 and 10", s.Ns, s.LimitNs)
		}
	}
	if math.Abs(r.RatioToLimit-0.5) > 1e-9 || math.Abs(r.RatioQ1-0.5) > 1e-9 || math.Abs(r.RatioQ3-0.5) > 1e-9 {
		t.Errorf("median ratio %v (quartiles %v-%v), want 0.5 (samples %v)", r.RatioToLimit, r.RatioQ1, r.RatioQ3, r.Samples)
	}
}
