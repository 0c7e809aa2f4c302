package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// hostileBodies are request bodies of 256 KiB (the default limit) shaped
// to cost memory: deep nesting, many members, many parts. The first is
// issue 23's reproducer: twelve members each nested about 9,990 deep.
func hostileBodies(t testing.TB) map[string]struct {
	ctype string
	body  []byte
} {
	const n = 256<<10 - 256
	out := map[string]struct {
		ctype string
		body  []byte
	}{}
	add := func(name, ctype string, body []byte) {
		if len(body) > 256<<10 {
			t.Fatalf("%s: %d bytes, over the limit", name, len(body))
		}
		out[name] = struct {
			ctype string
			body  []byte
		}{ctype, body}
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range 12 {
		fmt.Fprintf(&b, `"m%d": %s1%s,`, i, strings.Repeat("[", 9990), strings.Repeat("]", 9990))
	}
	b.WriteString(`"kind": "land"}`)
	deep := []byte(b.String())
	add("json twelve deep members", "application/json", deep)
	add("json one deep array", "application/json", []byte(`{"a": `+strings.Repeat("[", n/2-8)+strings.Repeat("]", n/2-8)+"}"))
	add("json deep objects", "application/json", []byte(strings.Repeat(`{"a":`, n/6)+"1"+strings.Repeat("}", n/6)))
	// At the depth limit, as wide as the body allows: the most indenting
	// can add.
	unit := strings.Repeat("[", maxJSONDepth-1) + strings.Repeat("]", maxJSONDepth-1)
	add("json widest at the depth limit", "application/json", []byte("{\"a\":"+strings.TrimSuffix(strings.Repeat(unit+",", (n-8)/(len(unit)+1)), ",")+"}"))
	add("json commas at depth", "application/json", []byte("{\"a\":"+strings.Repeat("[", maxJSONDepth-1)+strings.Repeat("0,", n/2-64)+"0"+strings.Repeat("]", maxJSONDepth-1)+"}"))
	b.Reset()
	b.WriteString("{")
	for i := 0; b.Len() < n-32; i++ {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"kind":"land"}`)
	add("json many members", "application/json", []byte(b.String()))
	b.Reset()
	b.WriteString("{")
	for i := 0; b.Len() < n-32; i++ {
		fmt.Fprintf(&b, `"attacker":{"units":[]},`)
	}
	b.WriteString(`"kind":"land"}`)
	add("json repeated members", "application/json", []byte(b.String()))
	add("yaml deep flow", "application/yaml", []byte("kind: land\na: "+strings.Repeat("[\n", n/4-8)+strings.Repeat("]\n", n/4-8)))
	b.Reset()
	b.WriteString("kind: land\na:\n")
	for i := 0; b.Len() < n-32; i++ {
		fmt.Fprintf(&b, "- [%d, {a: [b, c]}]\n", i)
	}
	add("yaml many flow items", "application/yaml", []byte(b.String()))
	b.Reset()
	for ind := ""; b.Len() < n-2048 && len(ind) < 1000; ind += " " {
		fmt.Fprintf(&b, "%sk:\n", ind)
	}
	add("yaml deep block", "application/yaml", []byte(b.String()))
	var mb bytes.Buffer
	mw := multipart.NewWriter(&mb)
	w, _ := mw.CreateFormFile("scenario", "s.json")
	w.Write(deep[:len(deep)-2048])
	mw.Close()
	add("multipart deep json", mw.FormDataContentType(), mb.Bytes())
	mb.Reset()
	mw = multipart.NewWriter(&mb)
	for mb.Len() < n-512 {
		w, _ := mw.CreateFormFile("crt", "c.yaml")
		w.Write([]byte("x: 1\n"))
	}
	mw.Close()
	add("multipart many parts", mw.FormDataContentType(), mb.Bytes())
	mb.Reset()
	mw = multipart.NewWriter(&mb)
	w, _ = mw.CreateFormFile("crt", "c.yaml")
	w.Write(bytes.Repeat([]byte("- [1, {a: [b, c]}]\n"), n/20-32))
	mw.Close()
	add("multipart big crt", mw.FormDataContentType(), mb.Bytes())
	return out
}

// No 256 KiB body, whatever its shape, makes the server allocate 64 MiB
// or keep it (issue 23 item 3): before the nesting check, the twelve deep
// members took gigabytes to indent.
func TestBodyMemory(t *testing.T) {
	s, err := New("127.0.0.1:8080", Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	const limit = 64 << 20
	for name, c := range hostileBodies(t) {
		for _, path := range []string{"/api/run", "/api/parse", "/api/plan"} {
			req := httptest.NewRequest("POST", "http://127.0.0.1:8080"+path, bytes.NewReader(c.body))
			req.Header.Set("Content-Type", c.ctype)
			rec := httptest.NewRecorder()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			s.ServeHTTP(rec, req)
			runtime.ReadMemStats(&after)
			if rec.Code/100 != 4 {
				t.Errorf("%s %s: %d, want a refusal (4xx): %.200s", name, path, rec.Code, rec.Body)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			inuse := int64(after.HeapInuse) - int64(before.HeapInuse)
			if alloc > limit || inuse > limit {
				t.Errorf("%s %s: allocated %d MiB, %d MiB still in use; the bound is %d MiB", name, path, alloc>>20, inuse>>20, limit>>20)
			}
		}
	}
}

// The bound boundJSON computes is never below what json.Indent writes,
// on random documents (a fixed seed) and the hostile bodies.
func TestBoundJSONCoversIndent(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 15))
	var gen func(b *strings.Builder, depth int)
	gen = func(b *strings.Builder, depth int) {
		switch k := rng.IntN(7); {
		case depth > 8 || k < 2:
			b.WriteString([]string{`1`, `"a,[{\"}"`, `true`, `null`, `""`, `-2.5e3`}[rng.IntN(6)])
		case k < 4:
			b.WriteString("[" + strings.Repeat(" ", rng.IntN(3)))
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString(",\n")
				}
				gen(b, depth+1)
			}
			b.WriteString("]")
		default:
			b.WriteString("{")
			for i := range rng.IntN(5) {
				if i > 0 {
					b.WriteString(" , ")
				}
				fmt.Fprintf(b, `"k%d" : `, i)
				gen(b, depth+1)
			}
			b.WriteString("}")
		}
	}
	docs := [][]byte{}
	for range 2000 {
		var b strings.Builder
		gen(&b, 0)
		docs = append(docs, []byte(b.String()))
	}
	for _, c := range hostileBodies(t) {
		docs = append(docs, c.body)
	}
	checked := 0
	for _, d := range docs {
		bound, err := boundJSON(d)
		if err != nil {
			continue
		}
		var buf bytes.Buffer
		if json.Indent(&buf, d, "", "  ") != nil {
			continue
		}
		checked++
		if buf.Len() > bound {
			t.Fatalf("bound %d under the indented size %d for %s", bound, buf.Len(), d)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d documents checked", checked)
	}
	if _, err := boundJSON([]byte(strings.Repeat("[", maxJSONDepth) + strings.Repeat("]", maxJSONDepth))); err != nil {
		t.Errorf("at the depth limit: %v", err)
	}
	if _, err := boundJSON([]byte(strings.Repeat("[", maxJSONDepth+1))); err == nil || !strings.Contains(err.Error(), "nested more than 32 deep") {
		t.Errorf("over the depth limit: %v", err)
	}
	// Brackets in strings are text.
	if _, err := boundJSON([]byte(`{"a": "` + strings.Repeat(`[\"`, 100) + `"}`)); err != nil {
		t.Errorf("brackets in a string: %v", err)
	}
}

// trickle opens a connection, sends a POST's headers promising a body of
// size bytes, then sends it a byte every gap until the server answers or
// stop closes. It returns the status line the server answered.
func trickle(t *testing.T, addr string, size int, gap time.Duration, stop <-chan struct{}) <-chan string {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	fmt.Fprintf(conn, "POST /api/run HTTP/1.1\r\nHost: %s\r\nContent-Type: application/yaml\r\nContent-Length: %d\r\n\r\n", addr, size)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(gap):
			}
			if _, err := conn.Write([]byte("#")); err != nil {
				return
			}
		}
	}()
	status := make(chan string, 1)
	go func() {
		defer conn.Close()
		line, _ := bufio.NewReader(conn).ReadString('\n')
		status <- strings.TrimSpace(line)
	}()
	return status
}

// Slow uploads hold no computation's slot: while two clients trickle
// their bodies, others are answered, and the tricklers get 408 once the
// body's deadline passes (issue 23 item 16).
func TestSlowUploadsHoldNoSlot(t *testing.T) {
	_, ts := newServer(t, Config{Concurrency: 1, BodyTimeout: 500 * time.Millisecond})
	addr := ts.Listener.Addr().String()
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	slow := []<-chan string{trickle(t, addr, 10000, 20*time.Millisecond, stop), trickle(t, addr, 10000, 20*time.Millisecond, stop)}
	time.Sleep(100 * time.Millisecond) // both are uploading
	for i := range 3 {
		if code, m, _ := post(t, ts, "/api/run?method=exact", "application/yaml", read(t, wild)); code != 200 {
			t.Errorf("call %d while two uploads trickle: %d %v", i, code, m["error"])
		}
	}
	for i, st := range slow {
		select {
		case line := <-st:
			if !strings.Contains(line, " 408 ") {
				t.Errorf("trickler %d: %q, want 408", i, line)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("trickler %d: no answer 10 s after its body's deadline", i)
		}
	}
	if d := time.Since(start); d > 8*time.Second {
		t.Errorf("the tricklers were cut off after %v; their deadline was 0.5 s", d)
	}
}

// The body's deadline ends with the body: a computation that runs longer
// than it is not cancelled (net/http would take the deadline passing on
// the idle connection for the client leaving).
func TestBodyDeadlineEndsWithBody(t *testing.T) {
	s, ts := newServer(t, Config{BodyTimeout: 20 * time.Millisecond})
	s.mux.HandleFunc("POST /slow", s.compute(func(ctx context.Context, in *input, _ url.Values) (any, error) {
		select {
		case <-time.After(300 * time.Millisecond):
			return map[string]bool{"finished": true}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}))
	code, m, _ := post(t, ts, "/slow", "application/yaml", read(t, wild))
	if code != 200 || m["finished"] != true {
		t.Errorf("a computation outlasting the body's deadline: %d %v", code, m)
	}
}

// No request body in JSON, nested or not, alone or in a form, makes the
// server panic, answer 500 or allocate without bound (issue 23 item 3).
func FuzzAPIJSON(f *testing.F) {
	f.Add([]byte(`{"kind": "land", "attacker": {"units": [{"type": "INF", "factors": 3, "nation": "GE"}]}, "defender": {"units": [{"type": "INF", "factors": 1, "nation": "FR"}]}}`), uint8(0), false)
	f.Add([]byte(`{"a": [[[[[[[[[[1]]]]]]]]]]}`), uint8(1), true)
	f.Add([]byte(strings.Repeat("[", 40)), uint8(2), false)
	f.Add([]byte(`{"a": "[[[\"]]"}`), uint8(0), true)
	s, err := New("127.0.0.1:8080", Config{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxTrials: 10000, Timeout: 2 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	paths := []string{"/api/run?trials=1000", "/api/parse", "/api/plan?max_forces=256", "/api/sweep?attack=1..6"}
	f.Fuzz(func(t *testing.T, body []byte, path uint8, form bool) {
		ctype := "application/json"
		if form {
			var buf bytes.Buffer
			mw := multipart.NewWriter(&buf)
			w, _ := mw.CreateFormFile("scenario", "s.json")
			w.Write(append([]byte("{"), body...))
			mw.Close()
			body, ctype = buf.Bytes(), mw.FormDataContentType()
		}
		req := httptest.NewRequest("POST", "http://127.0.0.1:8080"+paths[int(path)%len(paths)], bytes.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		rec := httptest.NewRecorder()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s.ServeHTTP(rec, req)
		runtime.ReadMemStats(&after)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%d %s for %q", rec.Code, rec.Body.String(), body)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 64<<20 {
			t.Fatalf("%d MiB allocated for a body of %d bytes", a>>20, len(body))
		}
	})
}

// readAll reads what io.ReadAll reads whatever length the body announced
// (none, exact, short, long, past readAhead), and passes an error on.
func TestReadAll(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 3000) // 48,000 bytes, past readAhead
	for _, size := range []int{0, 1, 600, readAhead, readAhead + 1, len(data)} {
		want := data[:size]
		for _, length := range []int64{-1, 0, 1, int64(size) - 1, int64(size), int64(size) + 1, readAhead, 1 << 20} {
			got, err := readAll(iotest.HalfReader(bytes.NewReader(want)), length)
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%d bytes announced as %d: got %d bytes, %v", size, length, len(got), err)
			}
		}
	}
	broken := errors.New("connection reset")
	got, err := readAll(io.MultiReader(bytes.NewReader(data[:100]), iotest.ErrReader(broken)), 600)
	if !errors.Is(err, broken) || !bytes.Equal(got, data[:100]) {
		t.Fatalf("got %d bytes, %v; want the 100 read and the error", len(got), err)
	}
}
