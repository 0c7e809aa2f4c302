package web

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// crossSite says why a request came from a page of another origin, or ""
// when it did not: such a request is refused (403) before it is routed,
// because a browser sends a form POST (text/plain, multipart or
// urlencoded) to any address without asking the server first.
//
// Browsers since 2023 say where a request comes from in Sec-Fetch-Site;
// older ones send Origin with every cross-origin POST. A request with
// neither (curl, a script) is not a browser's and passes. The one
// cross-site request allowed is a GET or HEAD that navigates: a link to
// the page, followed by the user; reading is all it does.
func crossSite(r *http.Request) string {
	origin := r.Header.Get("Origin")
	site := r.Header.Get("Sec-Fetch-Site")
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && r.Header.Get("Sec-Fetch-Mode") == "navigate" {
		return ""
	}
	switch site {
	case "", "same-origin", "none":
	case "same-site":
		// Another port or subdomain of the same site: a different origin,
		// unless Origin says otherwise.
		if origin == "" || !sameOrigin(origin, r.Host) {
			return "Sec-Fetch-Site: same-site (another origin)"
		}
	default: // cross-site, or a value no browser sends
		return fmt.Sprintf("Sec-Fetch-Site: %.40q", site)
	}
	if origin != "" && !sameOrigin(origin, r.Host) {
		return fmt.Sprintf("Origin %.80q", origin)
	}
	return ""
}

// sameOrigin says whether an Origin header names host (host:port, as the
// Host header gives it): the scheme's default port counts when Origin
// names none. Origin "null" (a sandboxed frame, a file) is never ours.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.User != nil || (u.Path != "" && u.Path != "/") {
		return false
	}
	h := strings.ToLower(u.Host)
	if u.Port() == "" {
		switch u.Scheme {
		case "http":
			h = net.JoinHostPort(strings.Trim(h, "[]"), "80")
		case "https":
			h = net.JoinHostPort(strings.Trim(h, "[]"), "443")
		default:
			return false
		}
	}
	return h == strings.ToLower(host)
}
