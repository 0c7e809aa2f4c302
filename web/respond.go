package web

import (
	"net/http"
	"sync"

	"github.com/wifodds/wifodds/answer"
)

// answerBuffers keeps the buffers answers are encoded into: a land
// combat's answer is about 6 KiB and the page asks for one at each edit,
// so a request reuses a buffer rather than allocate one and leave it to
// the garbage collector.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// largestKept is the largest buffer kept for reuse: a sweep's or a plan's
// rare large answer is left to the collector rather than held.
const largestKept = 256 << 10

// respond writes v as the CLI writes its JSON (answer.AppendJSON), or the
// error encoding it.
func (s *Server) respond(w http.ResponseWriter, r *http.Request, v any) {
	buf := answerBuffers.Get().(*[]byte)
	out, err := answer.AppendJSON((*buf)[:0], v)
	if err != nil {
		answerBuffers.Put(buf)
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
	if cap(out) <= largestKept {
		*buf = out[:0]
		answerBuffers.Put(buf)
	}
}
