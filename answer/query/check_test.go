package query

import (
	"errors"
	"net/url"
	"testing"

	"github.com/wifodds/wifodds/answer"
)

// Check refuses what the CLI refuses of its flags: an unknown parameter
// (with the nearest known one, and the endpoint's list) and one given
// twice; variant and cell alone repeat. The first refused key in sorted order is
// named, so the same query always gets the same message. A command that
// takes no parameters says so; one not listed is left to its caller.
func TestCheck(t *testing.T) {
	for _, c := range []struct{ command, query, want string }{
		{"run", "seed=1&seed=2", "seed is given 2 times (seed=1, seed=2); give it once"},
		{"run", "seeds=5", `unknown parameter "seeds" (did you mean seed?): /api/run takes the parameters method, trials, seed, budget, explain, raids, dice, crt, cell`},
		{"run", "zz=1&aa=1", `unknown parameter "aa": /api/run takes the parameters method, trials, seed, budget, explain, raids, dice, crt, cell`},
		{"parse", "x=1", `unknown parameter "x": /api/parse takes no parameters`},
		{"stack", "text=a&text=b", "text is given 2 times (text=a, text=b); give it once"},
		{"compare", "variant=a=crt=2d6&variant=b=crt=standard", ""},
		{"run", "cell=assault/3:1/4:*/1&cell=assault/3:1/5:*/1", ""},
		{"weights", "crt=2d6&crt=standard", "crt is given 2 times (crt=2d6, crt=standard); give it once"},
		{"sweep", "attack=1..2&crt=2d6", ""},
		{"fly", "anything=1", ""},
	} {
		v, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		err = Check(c.command, v)
		got := ""
		if err != nil {
			got = err.Error()
			var ie *answer.InputError
			if !errors.As(err, &ie) {
				t.Errorf("%s?%s: %T, want an *answer.InputError (a 400)", c.command, c.query, err)
			}
		}
		if got != c.want {
			t.Errorf("%s?%s: %q, want %q", c.command, c.query, got, c.want)
		}
	}
}
