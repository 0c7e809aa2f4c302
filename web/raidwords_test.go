package web

import (
	"strings"
	"testing"

	"github.com/wifodds/wifodds/combat"
)

// The page words every key of a raid's JSON (issue 28: the raid cards
// showed "asterisk" and "bp_lost"): each combat.RaidMetrics name and
// event, and the asterisk, has an entry in app.js's raidWords, and each
// count is worded with the CLI's own label.
func TestPageWordsEveryRaidKey(t *testing.T) {
	js, err := staticFiles.ReadFile("static/app.js")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(js), "const raidWords = {")
	end := strings.Index(string(js)[start:], "};")
	if start < 0 || end < 0 {
		t.Fatal("app.js has no raidWords")
	}
	words := string(js)[start : start+end]
	keys := []string{"asterisk: 'P("}
	for _, m := range combat.RaidMetrics {
		keys = append(keys, m.Name+": '"+m.Label+"'")
		if m.Event != "" {
			keys = append(keys, m.Event+": 'P(")
		}
	}
	for _, k := range keys {
		if !strings.Contains(words, k) {
			t.Errorf("raidWords has no %q", k)
		}
	}
}
