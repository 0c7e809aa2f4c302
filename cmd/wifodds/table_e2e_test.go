package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The page's Table tab (issue 29 item 4, docs/web.md), under both
// engines: on the wild-results example every cell's weight is the one
// `wifodds crt weights` reports for the scenario; clicking a cell edits
// it and P(hex taken) becomes `wifodds run --cell`'s for that edit;
// Shift+Enter on the cell takes the edit back and the arrow keys move
// between cells; axe-core finds no serious
// or critical violation on the tab. A screenshot at 1280 goes to the
// test's artifact folder.
func TestTableTab(t *testing.T) {
	if testing.Short() {
		t.Skip("the browser test")
	}
	axe := axeSource(t)
	t.Run("serve", func(t *testing.T) {
		tableTabChecks(t, startWeb(t, 2).URL, axe)
	})
	t.Run("static", func(t *testing.T) {
		static := httptest.NewServer(http.FileServer(http.Dir(siteDir(t))))
		defer static.Close()
		tableTabChecks(t, static.URL, axe)
	})
}

func tableTabChecks(t *testing.T, url, axe string) {
	const file = "../../examples/wild-results-3to1.yaml"
	ctx, cancel := browser(t, 1280, 900)
	defer cancel()
	printed := cliHexTaken(t, file)
	openShareLink(ctx, t, url, file, printed)
	const cell = `#grid-assault button[data-cell="assault/3:1/4"]`
	if err := chromedp.Do(ctx, chromedp.Click(css("#tab-table")), chromedp.WaitVisible(css(cell))); err != nil {
		t.Fatal(err)
	}
	waitValue(ctx, t, "#tt-p-hex", printed)

	// Every cell's weight, as the page holds it, is crt weights'.
	out, errs, code := wifodds(t, "crt", "weights", "standard", "--battery", file, "-f", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var lab struct {
		Cells []struct {
			Cell   string  `json:"cell"`
			Weight float64 `json:"weight"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(out), &lab); err != nil {
		t.Fatal(err)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(Object.fromEntries([...document.querySelectorAll('.crt-grid button.cell')].map((b) => [b.dataset.cell, b.dataset.weight])))`))
	if err != nil {
		t.Fatal(err)
	}
	var page map[string]string
	if err := json.Unmarshal([]byte(shown), &page); err != nil {
		t.Fatal(err)
	}
	read := 0
	for _, c := range lab.Cells {
		w, err := strconv.ParseFloat(page[c.Cell], 64)
		if err != nil || w != c.Weight {
			t.Errorf("%s: the page shows weight %q, crt weights %v", c.Cell, page[c.Cell], c.Weight)
		}
		if c.Weight > 0 {
			read++
		}
	}
	if len(page) != len(lab.Cells) || read != 6 {
		t.Errorf("the page has %d cells, crt weights %d (%d read, want 6)", len(page), len(lab.Cells), read)
	}

	// A click edits the cell; the figures are the run on the edited table.
	if err := chromedp.Do(ctx, chromedp.Click(css(cell)), chromedp.WaitVisible(css("#table-edit-list"))); err != nil {
		t.Fatal(err)
	}
	line := waitText(ctx, t, "#table-edit-list li span", "assault/3:1/4: 1/2 → ", 10e9)
	m := regexp.MustCompile(`^assault/3:1/4: 1/2 → (\S+)$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("the edit list says %q", line)
	}
	edited := cliHexTakenWith(t, file, "assault/3:1/4:"+m[1])
	if edited == printed {
		t.Fatalf("the edit to %s leaves P(hex taken) at %v: the check below proves nothing", m[1], printed)
	}
	waitValue(ctx, t, "#tt-p-hex", edited)
	if got := liveText(ctx, t, cell); got != m[1] {
		t.Errorf("the edited cell shows %q, want %s", got, m[1])
	}
	if got, want := liveText(ctx, t, "#tt-p-hex"), fmt.Sprintf("as printed %.2f%%", 100*printed); !strings.Contains(got, want) {
		t.Errorf("P(hex taken) on the edited table says %q, want it to say %q", got, want)
	}
	shotAs(ctx, t, "table-1280.png", false, "", true)
	accessible(ctx, t, axe, "the table tab")
	colourScheme(ctx, t, "dark")
	shotAs(ctx, t, "table-1280-dark.png", false, "", true)
	accessible(ctx, t, axe, "the table tab, dark")
	colourScheme(ctx, t, "light")

	// Shift+Enter on the cell (the focus stays on it) goes back to the
	// printed result: no edit, the printed figures.
	if err := chromedp.Do(ctx, chromedp.Focus(css(cell)), chromedp.KeyEvent("\r", chromedp.KeyModifiers(chromedp.ModifierShift)),
		chromedp.WaitVisible(css("#table-edit-none"))); err != nil {
		t.Fatal(err)
	}
	waitValue(ctx, t, "#tt-p-hex", printed)
	focused := func() string {
		f, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement?.dataset?.cell ?? ''`))
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	if f := focused(); f != "assault/3:1/4" {
		t.Errorf("after the redraw the focus is on %q, want the cell edited", f)
	}
	// The arrow keys move between the cells.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowDown), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	if f := focused(); f != "assault/4:1/5" {
		t.Errorf("down and right from assault/3:1/4 the focus is on %q, want assault/4:1/5", f)
	}
}

// cliHexTakenWith is `wifodds run --exact --cell EDIT`'s P(hex taken).
func cliHexTakenWith(t *testing.T, file, edit string) float64 {
	t.Helper()
	out, errs, code := wifodds(t, "run", "--exact", "--cell", edit, "-f", "json", file)
	if code != 0 {
		t.Fatalf("wifodds run --cell %s: %s", edit, errs)
	}
	var s struct {
		P struct {
			HexTaken struct{ P float64 } `json:"hex_taken"`
		} `json:"probabilities"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	return s.P.HexTaken.P
}
