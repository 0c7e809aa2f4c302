package reports

import (
	"slices"
	"testing"
)

// Issue 15: result rows are grouped by the attacker's part, worst first,
// then by the defender's, mildest first.
func TestResultRowOrder(t *testing.T) {
	got := byParts([]string{"*/2B", "-/1R", "1/-", "not allowed", "2/2S", "-/-", "1/2", "*/1S", "2/1", "1/1R"})
	want := []string{"2/1", "2/2S", "1/-", "1/1R", "1/2", "-/-", "-/1R", "*/1S", "*/2B", "not allowed"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}
