package crt

import "testing"

// docs/rules.md §1 and AsA 3.15: 16 factors against 3 are 5 2/6 to 1; a d6 of 1-2
// raises the odds to 6:1.
func TestFractionalSixteenToThree(t *testing.T) {
	f := Fractional(16, 3, nil, 6)
	if f.Low != (Ratio{5, 1}) || f.High != (Ratio{6, 1}) || f.Chance != 2 {
		t.Fatalf("Fractional(16, 3) = %+v, want 5:1 raised to 6:1 on 2 in 6", f)
	}
	// The d10 variant counts tenths: 5.333 is 3 tenths above 5:1.
	f = Fractional(16, 3, nil, 10)
	if f.Chance != 3 || f.Sides != 10 {
		t.Fatalf("d10 Fractional(16, 3) = %+v, want 3 in 10", f)
	}
}

func TestFractionalLevels(t *testing.T) {
	std := []Ratio{{1, 2}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 1}, {7, 1}, {10, 1}}
	twoD6 := []Ratio{{1, 5}, {1, 4}, {1, 3}, {1, 2}, {2, 3}, {1, 1}, {3, 2}, {2, 1}}
	cases := []struct {
		a, d      float64
		levels    []Ratio
		low, high Ratio
		chance    int
	}{
		{12, 4, std, Ratio{3, 1}, Ratio{3, 1}, 0},            // exact: no die
		{10, 4, std, Ratio{2, 1}, Ratio{3, 1}, 3},            // 2.5: 3 sixths
		{11, 4, std, Ratio{2, 1}, Ratio{3, 1}, 4},            // 2.75: 4.5 sixths rounded down
		{5, 4, twoD6, Ratio{1, 1}, Ratio{3, 2}, 3},           // 1.25 between 1:1 and the 2D6 3:2
		{7, 4, twoD6, Ratio{3, 2}, Ratio{2, 1}, 3},           // 1.75 between 3:2 and 2:1
		{3, 5, twoD6, Ratio{1, 2}, Ratio{2, 3}, 3},           // 0.6: (0.1)/(1/6) = 0.6 -> 3 sixths
		{1, 7, twoD6, Ratio{1, 7}, Ratio{1, 7}, 0},           // exactly 1:7: no die
		{2, 9, nil, Ratio{1, 5}, Ratio{1, 4}, 2},             // 0.2222: (0.0222)/(0.05) = 0.444 -> 2.67 -> 2
		{13.5, 1, std, Ratio{13, 1}, Ratio{14, 1}, 3},        // above every level: whole ratios
		{0.5, 1, std, Ratio{1, 2}, Ratio{1, 2}, 0},           // exactly 1:2
		{6.5, 1, std, Ratio{6, 1}, Ratio{7, 1}, 3},           // whole ratios between table levels
		{5.5, 2, std, Ratio{2, 1}, Ratio{3, 1}, 4},           // 2.75
		{1, 3.5, twoD6, Ratio{1, 4}, Ratio{1, 3}, 2},         // 0.2857: (0.0357)/(0.0833) = 0.4286 -> 2.57 -> 2
		{17, 16, twoD6, Ratio{1, 1}, Ratio{1, 1}, 0},         // 1.0625: 0.125*6 = 0.75 -> 0 sixths: no die
		{100, 1, std, Ratio{100, 1}, Ratio{100, 1}, 0},       // exact whole ratio
		{1, 100, std, Ratio{1, 100}, Ratio{1, 100}, 0},       // exact 1:n
		{1.5, 1, std, Ratio{1, 1}, Ratio{2, 1}, 3},           // 3:2 is not a standard level
		{1.5, 1, twoD6, Ratio{3, 2}, Ratio{3, 2}, 0},         // but is a 2D6 one
		{16, 3, twoD6, Ratio{5, 1}, Ratio{6, 1}, 2},          // the seed's example again
		{2.25, 1, twoD6, Ratio{2, 1}, Ratio{3, 1}, 1},        // 0.25*6 = 1.5 -> 1
		{19.5, 8, std, Ratio{2, 1}, Ratio{3, 1}, 2},          // 2.4375: 0.4375*6 = 2.625 -> 2
		{20, 8, std, Ratio{2, 1}, Ratio{3, 1}, 3},            // 2.5
		{13, 4, std, Ratio{3, 1}, Ratio{4, 1}, 1},            // 3.25: 1.5 -> 1
		{6, 12, std, Ratio{1, 2}, Ratio{1, 2}, 0},            // exact
		{5, 12, twoD6, Ratio{1, 3}, Ratio{1, 2}, 3},          // 0.4167: (0.0833)/(0.1667) = 0.5 -> 3
		{7, 12, twoD6, Ratio{1, 2}, Ratio{2, 3}, 3},          // 0.5833: 0.5 -> 3
		{11, 12, twoD6, Ratio{2, 3}, Ratio{1, 1}, 4},         // 0.9167: (0.25)/(0.333) = 0.75 -> 4.5 -> 4
		{3, 1, nil, Ratio{3, 1}, Ratio{3, 1}, 0},             // exact
		{1, 1, nil, Ratio{1, 1}, Ratio{1, 1}, 0},             // exact
		{1, 1.25, nil, Ratio{1, 2}, Ratio{1, 1}, 3},          // 0.8: (0.3)/(0.5) = 0.6 -> 3.6 -> 3
		{4, 4.5, nil, Ratio{1, 2}, Ratio{1, 1}, 4},           // 0.889: 0.778 -> 4.67 -> 4
		{1, 2.5, nil, Ratio{1, 3}, Ratio{1, 2}, 2},           // 0.4: 0.4 -> 2.4 -> 2
		{1, 2.75, nil, Ratio{1, 3}, Ratio{1, 2}, 1},          // 0.3636: 0.18 -> 1.09 -> 1
		{2, 5, []Ratio{{2, 5}}, Ratio{2, 5}, Ratio{2, 5}, 0}, // exact on a table level
	}
	for _, c := range cases {
		f := Fractional(c.a, c.d, c.levels, 6)
		if f.Low != c.low || f.High != c.high || f.Chance != c.chance {
			t.Errorf("Fractional(%v, %v) = %v..%v chance %d, want %v..%v chance %d", c.a, c.d, f.Low, f.High, f.Chance, c.low, c.high, c.chance)
		}
	}
}

// docs/rules.md §1: round down to the highest level not above R; below the lowest,
// the lowest level (standard) or <1:5 (2D6).
func TestLevelFor(t *testing.T) {
	std, _ := Builtin("standard")
	two, _ := Builtin("2d6")
	cases := []struct {
		t    *Table
		a, d float64
		want string
	}{
		{std, 13, 4, "3:1"},
		{std, 6, 1, "5:1"},
		{std, 9.9, 1, "7:1"},
		{std, 40, 1, ">=10:1"},
		{std, 1.5, 1, "1:1"},
		{std, 1, 3, "<=1:2"},
		{two, 1, 3, "1:3"},
		{two, 1.5, 1, "3:2"},
		{two, 1, 6, "<1:5"},
		{two, 2, 3, "2:3"},
		{two, 0.65, 1, "1:2"},
		{two, 16, 3, "5:1"},
		{two, 20, 1, ">=10:1"},
	}
	for _, c := range cases {
		if got := c.t.Levels[c.t.LevelFor(c.a, c.d)].String(); got != c.want {
			t.Errorf("%s LevelFor(%v, %v) = %s, want %s", c.t.Name, c.a, c.d, got, c.want)
		}
	}
}

// docs/rules.md §1: standard rounds each total to nearest, 0.5 up; 2D6 keeps fractions.
func TestRounding(t *testing.T) {
	for _, c := range []struct{ in, want float64 }{{19.5, 20}, {19.49, 19}, {6.5, 7}, {0.5, 1}, {0.25, 0}, {3, 3}} {
		if got := RoundNearest.Round(c.in); got != c.want {
			t.Errorf("RoundNearest(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if got := KeepFractions.Round(19.5); got != 19.5 {
		t.Errorf("KeepFractions(19.5) = %v", got)
	}
}

// Ratio names are "a:b" whether kept written or not.
func TestRatioString(t *testing.T) {
	for _, c := range []struct {
		r    Ratio
		want string
	}{{Ratio{3, 2}, "3:2"}, {Ratio{1, 16}, "1:16"}, {Ratio{16, 1}, "16:1"}, {Ratio{17, 1}, "17:1"}, {Ratio{1, 1000}, "1:1000"}, {Ratio{0, 1}, "0:1"}} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}
