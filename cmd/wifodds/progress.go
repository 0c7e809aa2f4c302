package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wifodds/wifodds/reports"
	"golang.org/x/term"
)

// progress draws one status line on a terminal, and nothing elsewhere or
// with --quiet: what is counted, how far it is with thousands separators,
// the rate, the time elapsed and, when the total is known, a bar and the
// time left. The line fits the terminal's width, is redrawn at most ten
// times a second, and is erased when the work ends or is interrupted, so
// only the report remains.
type progress struct {
	mu     sync.Mutex
	w      io.Writer
	fd     int
	unit   string // what is counted: trials, paths, steps
	start  time.Time
	last   time.Time
	drawn  bool
	widthF func() int
}

func newProgress(w io.Writer, quiet bool, unit string) *progress {
	p := &progress{unit: unit}
	if f, ok := w.(*os.File); ok && !quiet && term.IsTerminal(int(f.Fd())) {
		p.w, p.fd = w, int(f.Fd())
		p.widthF = func() int {
			if wd, _, err := term.GetSize(p.fd); err == nil && wd > 0 {
				return wd
			}
			return 80
		}
	}
	return p
}

// update is called with the work done so far and the total planned (0
// when not known in advance); it may be called from several goroutines.
func (p *progress) update(done, planned uint64) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.start.IsZero() {
		p.start = now
	}
	if now.Sub(p.last) < 100*time.Millisecond && done != planned {
		return
	}
	p.last = now
	line := progressLine(p.unit, done, planned, now.Sub(p.start), p.widthF())
	fmt.Fprintf(p.w, "\r%s\x1b[K", line)
	p.drawn = true
}

// finish erases the line.
func (p *progress) finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// progressLine words the state of the work in at most width columns,
// dropping the least useful parts first on a narrow terminal.
func progressLine(unit string, done, planned uint64, elapsed time.Duration, width int) string {
	secs := elapsed.Seconds()
	parts := []string{fmt.Sprintf("%s %s", unit, reports.Thousands(done))}
	if planned > 0 {
		parts[0] += fmt.Sprintf(" of %s (%d%%)", reports.Thousands(planned), 100*done/planned)
	}
	rate, times := "", fmt.Sprintf("elapsed %s", elapsed.Round(time.Second))
	if secs > 0 {
		rate = fmt.Sprintf("%s/s", humanRate(float64(done)/secs))
		if planned > 0 && done > 0 && done < planned {
			left := time.Duration(float64(planned-done) / (float64(done) / secs) * float64(time.Second))
			times += fmt.Sprintf(", about %s left", left.Round(time.Second))
		}
	}
	bar := ""
	if planned > 0 {
		bar = "[" + strings.Repeat("#", int(20*done/planned)) + strings.Repeat(".", 20-int(20*done/planned)) + "] "
	}
	for _, candidate := range []string{
		bar + strings.Join(append(parts, rate, times), " · "),
		strings.Join(append(parts, rate, times), " · "),
		strings.Join(append(parts, times), " · "),
		parts[0],
	} {
		if len([]rune(candidate)) < width {
			return candidate
		}
	}
	r := []rune(parts[0])
	return string(r[:max(0, min(len(r), width-1))])
}

// humanRate writes a rate with a k, M or G suffix.
func humanRate(r float64) string {
	switch {
	case r >= 1e9:
		return fmt.Sprintf("%.1fG", r/1e9)
	case r >= 1e6:
		return fmt.Sprintf("%.1fM", r/1e6)
	case r >= 1e3:
		return fmt.Sprintf("%.1fk", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}
