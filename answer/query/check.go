package query

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// parameters are the query parameters each command reads, as the CLI's
// flags; variant and cell alone may be given more than once.
var parameters = map[string][]string{
	"run":     {"method", "trials", "seed", "budget", "explain", "raids", "dice", "crt", "cell"},
	"weights": {"crt", "cell"},
	"compare": {"variant", "method", "trials", "seed", "budget", "independent"},
	"sweep":   {"attack", "defence", "modifier", "crt", "target", "budget"},
	"plan":    {"target", "max_forces", "trials", "seed", "budget"},
	"parse":   {},
	"stack":   {"text"},
	"schema":  {},
}

// Check refuses a parameter the command does not read (seeds=5 would be
// ignored, and the run take seed 1) and one given twice (only one would
// be read). A command not listed is not checked here: the caller refuses
// it. Errors name the server's endpoint, /api/COMMAND, on both surfaces.
func Check(command string, v url.Values) error {
	known, ok := parameters[command]
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same error for the same query
	for _, k := range keys {
		switch {
		case !slices.Contains(known, k):
			hint := ""
			for _, c := range known {
				if strings.HasPrefix(k, c) || strings.HasPrefix(c, k) || strings.EqualFold(c, k) {
					hint = fmt.Sprintf(" (did you mean %s?)", c)
					break
				}
			}
			takes := "no parameters"
			if len(known) > 0 {
				takes = "the parameters " + strings.Join(known, ", ")
			}
			return bad("unknown parameter %q%s: /api/%s takes %s", k, hint, command, takes)
		case len(v[k]) > 1 && k != "variant" && k != "cell":
			return bad("%s is given %d times (%s=%s); give it once", k, len(v[k]), k, strings.Join(v[k], ", "+k+"="))
		}
	}
	return nil
}
