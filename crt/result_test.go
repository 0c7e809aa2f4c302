package crt

import "testing"

// docs/rules.md §2: result codes A/D with -, * or N for the attacker and -, N, NR,
// NS or NB for the defender.
func TestParseResult(t *testing.T) {
	cases := []struct {
		code string
		want Result
	}{
		{"4/-", Result{AttackerLoss: 4}},
		{"-/-", Result{}},
		{"*/2S", Result{FaceUp: true, DefenderLoss: 2, Effect: Shatter}},
		{"-/1R", Result{DefenderLoss: 1, Effect: Retreat}},
		{"1/2B", Result{AttackerLoss: 1, DefenderLoss: 2, Effect: Breakthrough}},
		{"2/1", Result{AttackerLoss: 2, DefenderLoss: 1}},
		{"12/10", Result{AttackerLoss: 12, DefenderLoss: 10}},
	}
	for _, c := range cases {
		got, err := ParseResult(c.code)
		if err != nil {
			t.Fatalf("ParseResult(%q): %v", c.code, err)
		}
		if got != c.want {
			t.Errorf("ParseResult(%q) = %+v, want %+v", c.code, got, c.want)
		}
		if got.String() != c.code {
			t.Errorf("ParseResult(%q).String() = %q", c.code, got.String())
		}
	}
}

func TestParseResultRejects(t *testing.T) {
	for _, code := range []string{"", "4", "4-", "/", "x/-", "-/x", "0/-", "-/0", "-/R", "*/*", "-/2Q", "1/2SS", "-/-R", "+1/-", "99/-", " 1/-"} {
		if r, err := ParseResult(code); err == nil {
			t.Errorf("ParseResult(%q) = %v, want an error", code, r)
		}
	}
}

func FuzzParseResult(f *testing.F) {
	for _, s := range []string{"4/-", "*/2S", "-/1R", "1/2B", "x", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseResult(s)
		if err != nil {
			return
		}
		back, err := ParseResult(r.String())
		if err != nil || back != r {
			t.Fatalf("%q -> %v -> %v, %v", s, r, back, err)
		}
	})
}

// Every code String keeps written is the one it writes out, and parses
// back to its result (docs/rules.md §2).
func TestResultCodesWritten(t *testing.T) {
	for a := int8(0); a <= 20; a++ {
		for _, up := range []bool{false, true} {
			for d := int8(0); d <= 20; d++ {
				for e := NoEffect; e <= Breakthrough; e++ {
					r := Result{AttackerLoss: a, FaceUp: up, DefenderLoss: d, Effect: e}
					if got, want := r.String(), r.code(); got != want {
						t.Fatalf("%+v: String %q, code %q", r, got, want)
					}
					if a == 0 && (d > 0 || e == NoEffect) {
						back, err := ParseResult(r.String())
						if err != nil || back != r {
							t.Errorf("%+v -> %q -> %+v, %v", r, r.String(), back, err)
						}
					}
				}
			}
		}
	}
	if got := (Result{AttackerLoss: 2, FaceUp: true, DefenderLoss: 3, Effect: Shatter}).String(); got != "2/3S" {
		t.Errorf("a loss hides the star: got %q", got)
	}
}
