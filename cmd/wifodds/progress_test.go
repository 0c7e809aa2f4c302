package main

import (
	"strings"
	"testing"
	"time"
)

// Issue 15: the progress line has thousands separators and labels, and
// fits a narrow terminal by dropping parts, never by collapsing.
func TestProgressLine(t *testing.T) {
	wide := progressLine("trials", 32440320, 500000000, 2*time.Second, 120)
	for _, want := range []string{"trials 32,440,320 of 500,000,000 (6%)", "16.2M/s", "elapsed 2s", "about 29s left", "[#"} {
		if !strings.Contains(wide, want) {
			t.Errorf("%q lacks %q", wide, want)
		}
	}
	for _, w := range []int{60, 40, 20, 5} {
		got := progressLine("trials", 32440320, 500000000, 2*time.Second, w)
		if len([]rune(got)) >= w {
			t.Errorf("width %d: %q is %d wide", w, got, len([]rune(got)))
		}
		if w >= 40 && !strings.Contains(got, "32,440,320") {
			t.Errorf("width %d: %q lost the count", w, got)
		}
	}
	if got := progressLine("paths", 16384, 0, time.Second, 80); !strings.HasPrefix(got, "paths 16,384 · ") || strings.Contains(got, "left") {
		t.Errorf("unknown total: %q", got)
	}
}
