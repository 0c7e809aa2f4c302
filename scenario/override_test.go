package scenario

import (
	"strings"
	"testing"
)

func TestOverride(t *testing.T) {
	s, err := Parse("v.yaml", []byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Override(s, "crt=2d6, table=assault,options+=blitz-modifier,options-=wild-results,modifier=-2")
	if err != nil {
		t.Fatal(err)
	}
	if o.CRT != "2d6" || o.Table != "assault" || !o.Has(BlitzModifier) || o.Has(WildResults) || !o.Has(FractionalOdds) || o.Modifier != -2 {
		t.Errorf("override gave %+v", o)
	}
	if !s.Has(WildResults) || s.CRT != "standard" {
		t.Error("Override changed the original")
	}
	if o, _ := Override(s, "options="); len(o.Options) != 0 {
		t.Errorf("options= left %v", o.Options)
	}
	for bad, want := range map[string]string{
		"crt":                          "want key=value",
		"table=fast":                   "auto, assault or blitz",
		"options+=wild":                "unknown option",
		"speed=3":                      "unknown key",
		"modifier=x":                   "whole number",
		"options+=fractional-odds-d10": "choose one of",
		// Issue 23 item 8: a key given twice is refused, not settled by
		// its last value.
		"crt=2d6,crt=standard":                         `"crt=2d6" already sets it`,
		"modifier=1, modifier=2":                       `"modifier=1" already sets it`,
		"options+=wild-results,options-=wild-results":  `"options+=wild-results" already sets it`,
		"options+=wild-results,options=":               "options= sets the whole list",
		"options=wild-results,options-=blitz-modifier": "already sets the whole list",
		// Red-team finding F7: an option twice in one list, or an empty
		// name, was taken silently.
		"options=wild-results+wild-results": "option wild-results is named twice",
		"options=wild-results+":             "an empty option name",
		"options=+wild-results":             "an empty option name",
	} {
		if _, err := Override(s, bad); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
	}
}
