package web

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// acquire takes a computation's slot for a request, waiting for one in a
// short queue when every slot is busy: at most QueueLength requests wait,
// each at most QueueWait and never past ctx (the request's deadline, or
// the client going away). A burst a little over the limit is served a
// moment late instead of refused; a server that stays busy still answers
// 503 quickly. Requests waiting are woken in the order they came (a
// channel's senders queue first in, first out). The caller releases the
// slot with release.
func (s *Server) acquire(ctx context.Context) error {
	select {
	case s.slots <- struct{}{}:
		return nil
	default:
	}
	select {
	case s.queue <- struct{}{}:
		defer func() { <-s.queue }()
	default:
		return busy(fmt.Sprintf("busy: %d computations are running and %d waiting; try again shortly", cap(s.slots), cap(s.queue)))
	}
	wait := time.NewTimer(s.cfg.QueueWait)
	defer wait.Stop()
	select {
	case s.slots <- struct{}{}:
		return nil
	case <-wait.C:
		return busy(fmt.Sprintf("busy: no computation's slot freed within %s (%d run at once); try again shortly", s.cfg.QueueWait, cap(s.slots)))
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release frees the slot acquire took.
func (s *Server) release() { <-s.slots }

// busy is the 503 a request gets when it cannot have a slot; fail adds
// its Retry-After.
func busy(msg string) error {
	return &badRequest{status: http.StatusServiceUnavailable, msg: msg}
}
