package crt

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Ratio is an odds level a:b in lowest terms.
type Ratio struct{ Num, Den int }

// ParseRatio parses "a:b" with positive whole a and b, e.g. "3:2".
func ParseRatio(s string) (Ratio, error) {
	a, b, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok {
		return Ratio{}, fmt.Errorf("odds %q: want a:b, e.g. 3:2", s)
	}
	n, err1 := strconv.Atoi(a)
	d, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || d < 1 || n > 1000 || d > 1000 {
		return Ratio{}, fmt.Errorf("odds %q: want whole numbers 1 to 1000 on each side", s)
	}
	return Ratio{n, d}, nil
}

func (r Ratio) String() string {
	if r.Num >= 0 && r.Num < len(ratioNames()) && r.Den >= 0 && r.Den < len(ratioNames()) {
		return ratioNames()[r.Num][r.Den]
	}
	return r.name()
}

func (r Ratio) name() string { return strconv.Itoa(r.Num) + ":" + strconv.Itoa(r.Den) }

// ratioNames are the names of the ratios with small terms, every CRT
// level's, written once: summaries name the level of every answer.
var ratioNames = sync.OnceValue(func() *[17][17]string {
	var names [17][17]string
	for n := range names {
		for d := range names[n] {
			names[n][d] = Ratio{n, d}.name()
		}
	}
	return &names
})

// AtMost reports whether r <= attack/defence. It compares cross products,
// which is exact for the dyadic totals that halving and rounding produce.
func (r Ratio) AtMost(attack, defence float64) bool {
	return float64(r.Num)*defence <= attack*float64(r.Den)
}

// Less reports whether r < s.
func (r Ratio) Less(s Ratio) bool { return r.Num*s.Den < s.Num*r.Den }

// Rounding says how a side's total is rounded before the odds (docs/rules.md §1).
type Rounding uint8

const (
	// RoundNearest rounds each side's final total to the nearest whole
	// number, 0.5 up, after all halving (AsA and AfA introductions).
	RoundNearest Rounding = iota + 1
	// KeepFractions keeps all fractions when computing odds (AfA 8.1c).
	KeepFractions
)

func (r Rounding) String() string {
	if r == KeepFractions {
		return "none"
	}
	return "nearest"
}

// Round applies the rounding rule to a final total.
func (r Rounding) Round(total float64) float64 {
	if r == KeepFractions {
		return total
	}
	return math.Floor(total + 0.5)
}

// Fraction is the outcome of the fractional-odds rule (AsA 3.15) for one
// pair of totals: the odds are Low, and a die of Sides sides showing Chance
// or less raises them to High.
type Fraction struct {
	Low, High Ratio
	Chance    int // 0 when the odds are exact (no die is rolled)
	Sides     int // 6 for sixths and a d6, 10 for tenths and a d10
}

// Fractional applies AsA 3.15 to attack:defence. The levels the rule steps
// between are every whole ratio n:1 and 1:n plus extra (a CRT's own levels,
// such as 3:2). Chance is (R - Low)/(High - Low) rounded down to 1/sides,
// computed exactly so 16:3 gives 2 sixths, not 1.99. Both totals must be
// positive.
func Fractional(attack, defence float64, extra []Ratio, sides int) Fraction {
	f := Fraction{Sides: sides}
	if attack <= 0 || defence <= 0 {
		return f
	}
	var lo, hi Ratio
	haveLo, haveHi := false, false
	consider := func(c Ratio) {
		if c.AtMost(attack, defence) {
			if !haveLo || lo.Less(c) {
				lo, haveLo = c, true
			}
		} else if !haveHi || c.Less(hi) {
			hi, haveHi = c, true
		}
	}
	for _, c := range extra {
		consider(c)
	}
	// Whole ratios either side of R: n:1 and (n+1):1 above 1, 1:m and
	// 1:(m-1) below it.
	n := int(math.Floor(attack / defence))
	for _, k := range []int{n - 1, n, n + 1, n + 2} {
		if k >= 1 {
			consider(Ratio{k, 1})
		}
	}
	if attack < defence {
		m := int(math.Ceil(defence / attack))
		for _, k := range []int{m - 1, m, m + 1} {
			if k >= 1 {
				consider(Ratio{1, k})
			}
		}
	}
	if !haveLo || !haveHi {
		return f
	}
	f.Low, f.High = lo, hi
	// p = (a/d - ln/ld) / (hn/hd - ln/ld) = num/den with
	num := (attack*float64(lo.Den) - defence*float64(lo.Num)) * float64(hi.Den)
	den := defence * float64(hi.Num*lo.Den-lo.Num*hi.Den)
	for k := sides - 1; k >= 1; k-- {
		if float64(k)*den <= float64(sides)*num {
			f.Chance = k
			break
		}
	}
	if f.Chance == 0 {
		f.High = f.Low
	}
	return f
}
