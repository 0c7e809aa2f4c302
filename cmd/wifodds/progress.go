package main

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress draws a progress bar with its rate and ETA on a terminal, and
// nothing elsewhere or with --quiet. A total of 0 means not known in
// advance (exact enumeration): a spinner with the count then.
type progress struct {
	mu   sync.Mutex
	bar  *progressbar.ProgressBar
	w    io.Writer
	max  uint64
	unit string // what is counted: trials, paths, steps
}

func newProgress(w io.Writer, quiet bool, unit string) *progress {
	p := &progress{w: w, unit: unit}
	if f, ok := w.(*os.File); quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		p.w = nil
	}
	return p
}

func (p *progress) update(done, planned uint64) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil || planned != p.max {
		if p.bar != nil {
			p.bar.ChangeMax64(int64(planned))
		} else {
			max := int64(planned)
			if planned == 0 {
				max = -1
			}
			p.bar = progressbar.NewOptions64(max,
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(p.unit),
				progressbar.OptionShowCount(),
				progressbar.OptionShowIts(),
				progressbar.OptionSetItsString(p.unit),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
				progressbar.OptionSetPredictTime(true),
				progressbar.OptionFullWidth(),
			)
		}
		p.max = planned
	}
	_ = p.bar.Set64(int64(done))
}

func (p *progress) finish() {
	if p == nil || p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	// Exit stops the bar where it is (a run cut short is not 100%) and
	// Clear removes it, so only the report remains.
	_ = p.bar.Exit()
	_ = p.bar.Clear()
}
