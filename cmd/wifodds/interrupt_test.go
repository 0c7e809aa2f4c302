package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// Audit item 11: exact enumeration, path counting for --auto and sweeps
// stop on the first signal (a cancelled context) with a clear message and
// exit status 130, instead of running on.
func TestLongComputationsStop(t *testing.T) {
	cases := [][]string{
		{"run", "--exact", "--budget", "1000000000000", "testdata/huge-tree.yaml"},
		{"run", "--auto", "--budget", "1099511627776", "testdata/huge-tree.yaml"},
		{"compare", "--exact", "--budget", "1099511627776", "-v", "a=modifier=1", "testdata/huge-tree.yaml"},
		{"sweep", "--attack", "10..500", "--budget", "1099511627776", "testdata/huge-tree.yaml"},
	}
	for _, args := range cases {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		var out, errb bytes.Buffer
		start := time.Now()
		code := run(ctx, append([]string{"wifodds"}, args...), &out, &errb)
		cancel()
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%v: stopped after %v", args, d)
		}
		if code != exitInterrupted || !strings.Contains(errb.String(), "interrupted") || !strings.Contains(errb.String(), "nothing to report") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%v: printed a report: %s", args, out.String())
		}
	}
}

// Audit item 11: budgets are bounded, so budget+1 cannot wrap.
func TestBudgetBounded(t *testing.T) {
	for _, cmd := range [][]string{
		{"run", "--auto", "--budget", "9223372036854775807", "testdata/huge-tree.yaml"},
		{"compare", "--budget", "9223372036854775807", "-v", "a=modifier=1", "testdata/huge-tree.yaml"},
		{"sweep", "--attack", "1..2", "--budget", "9223372036854775807", "testdata/huge-tree.yaml"},
	} {
		_, stderr, code := wifodds(t, cmd...)
		if code != exitUsage || !strings.Contains(stderr, "--budget 9223372036854775807: want 1 to 1099511627776 paths") {
			t.Errorf("%v: exit %d, %s", cmd, code, stderr)
		}
	}
}
