package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os/exec"
	"runtime"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/wifodds/wifodds/sim"
	"github.com/wifodds/wifodds/web"
)

func serveCommand() *cli.Command {
	flags := []cli.Flag{
		&cli.StringFlag{Name: "listen", Value: "127.0.0.1:8080", Usage: "`HOST:PORT` to listen on (loopback unless you say otherwise; port 0 picks a free one)"},
		&cli.BoolFlag{Name: "open", Usage: "open the page in the default browser"},
		&cli.StringFlag{Name: "max-trials", Value: "1e8", Usage: "most Monte Carlo trials one request may ask for"},
		&cli.DurationFlag{Name: "timeout", Value: 10 * time.Second, Usage: "deadline of one computation"},
		&cli.IntFlag{Name: "concurrency", Value: runtime.NumCPU(), Usage: "computations at once; more wait in the queue"},
		&cli.IntFlag{Name: "queue", Value: 4 * runtime.NumCPU(), Usage: "requests that may wait for a computation's slot (default 4 per slot; 0: none); more get 503 busy"},
		&cli.DurationFlag{Name: "queue-wait", Value: 2 * time.Second, Usage: "longest a request waits for a slot before 503 busy"},
		&cli.StringSliceFlag{Name: "host", Usage: "with a network --listen: a `NAME` browsers on other machines use for this one (e.g. mybox.lan); the machine's own addresses are served already (repeat for more)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "no access log"},
	}
	return command("serve", "a local web app: build a combat by pointing and clicking, see the odds as you edit", "",
		"Serves the page and its JSON API (docs/web.md) until Ctrl-C. Everything is in the binary; nothing is fetched.\n"+
			"It listens on loopback: only this machine can reach it unless --listen names another address.\n\n"+
			"Examples:\n"+
			"   wifodds serve --open\n"+
			"   wifodds serve --listen 127.0.0.1:9000 --timeout 30s\n"+
			"   wifodds serve --listen 0.0.0.0:8080 --host mybox.lan   (other machines: no login, read the warning)",
		flags, serveAction)
}

func serveAction(c *cli.Context) error {
	if c.NArg() != 0 {
		return usagef("serve takes no arguments")
	}
	cfg, err := serveConfig(c)
	if err != nil {
		return err
	}
	// Only an address named in full exposes the server: "" and ":8080"
	// would bind every interface without saying so.
	listen := c.String("listen")
	// An empty port would listen on a random one, as port 0 does, though
	// nobody asked for it: the address is named in full.
	if host, port, err := net.SplitHostPort(listen); err != nil || host == "" || port == "" {
		return usagef("--listen %q: name the host and port: 127.0.0.1:8080 serves this machine only; a network address such as 192.168.1.5:8080 exposes the server to that network", listen)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return usagef("--listen %s: %v", c.String("listen"), err)
	}
	addr := ln.Addr().String()
	log := slog.New(slog.NewTextHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if c.Bool("quiet") {
		log = slog.New(slog.NewTextHandler(c.App.ErrWriter, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	cfg.Log = log
	srv, err := web.New(addr, cfg)
	if err != nil {
		ln.Close()
		return err
	}
	url := "http://" + addr + "/"
	fmt.Fprintf(c.App.Writer, "wifodds: serving on %s (Ctrl-C stops)\n", url)
	if ip := ln.Addr().(*net.TCPAddr).IP; !ip.IsLoopback() {
		warnNetwork(c, addr, ip)
	}
	if c.Bool("open") {
		if err := openBrowser(url); err != nil {
			fmt.Fprintf(c.App.ErrWriter, "wifodds: could not open a browser (%v); open %s yourself\n", err, url)
		}
	}
	err = srv.Serve(c.Context, ln)
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	fmt.Fprintln(c.App.Writer, "wifodds: stopped")
	return err
}

// warnNetwork says loudly that other machines can reach the server, and
// at which addresses: on every interface, the one printed (0.0.0.0 or
// [::]) is not one a browser elsewhere can open.
func warnNetwork(c *cli.Context, addr string, ip net.IP) {
	fmt.Fprintf(c.App.ErrWriter, "wifodds: WARNING: %s is not a loopback address: other machines can reach this server.\n"+
		"wifodds: WARNING: it has no login; anyone who reaches it can run computations on this machine.\n"+
		"wifodds: WARNING: to serve this machine only, use --listen 127.0.0.1:PORT.\n", addr)
	if !ip.IsUnspecified() {
		return
	}
	_, port, _ := net.SplitHostPort(addr)
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			fmt.Fprintf(c.App.Writer, "wifodds: on this network: http://%s/\n", net.JoinHostPort(n.IP.String(), port))
		}
	}
}

// openBrowser opens url in the desktop's browser.
func openBrowser(url string) error {
	name, args := "xdg-open", []string{url}
	switch runtime.GOOS {
	case "darwin":
		name = "open"
	case "windows":
		name, args = "rundll32", []string{"url.dll,FileProtocolHandler", url}
	}
	return exec.Command(name, args...).Start()
}

// serveConfig reads the server's limits and the host names it answers to
// from the flags.
func serveConfig(c *cli.Context) (web.Config, error) {
	maxTrials, err := sim.ParseCount(c.String("max-trials"), "trials")
	if err != nil {
		return web.Config{}, usagef("--max-trials: %v", err)
	}
	if c.Duration("timeout") <= 0 || c.Duration("timeout") > time.Hour {
		return web.Config{}, usagef("--timeout %v: want more than 0 and at most 1h", c.Duration("timeout"))
	}
	if n := c.Int("concurrency"); n < 1 || n > 1024 {
		return web.Config{}, usagef("--concurrency %d: want 1 to 1024", n)
	}
	queue := 4 * c.Int("concurrency")
	if c.IsSet("queue") {
		if queue = c.Int("queue"); queue < 0 || queue > 4096 {
			return web.Config{}, usagef("--queue %d: want 0 (no queue) to 4096", queue)
		}
		if queue == 0 {
			queue = -1 // web.Config's "none"
		}
	}
	if d := c.Duration("queue-wait"); d <= 0 || d > time.Minute {
		return web.Config{}, usagef("--queue-wait %v: want more than 0 and at most 1m", d)
	}
	for _, h := range c.StringSlice("host") {
		if err := web.CheckHostName(h); err != nil {
			return web.Config{}, usagef("--%v", err)
		}
	}
	return web.Config{MaxTrials: maxTrials, Timeout: c.Duration("timeout"), Concurrency: c.Int("concurrency"),
		QueueLength: queue, QueueWait: c.Duration("queue-wait"), Workers: runtime.NumCPU(), Hosts: c.StringSlice("host")}, nil
}
