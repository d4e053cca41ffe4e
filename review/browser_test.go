package review

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/tri-lang/tri/hostpy" // the samples' autotune configs are host Python
	"github.com/tri-lang/tri/launch"
)

// browser finds a headless-capable Chromium. Without one the browser
// tests skip, unless TRI_REQUIRE_BROWSER=1 (as CI sets it) makes them fail.
func browser(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TRI_REQUIRE_BROWSER") == "1" {
		t.Fatal("no chromium found, and TRI_REQUIRE_BROWSER=1 asks for the browser tests (apt-get install chromium)")
	}
	t.Skip("no chromium found: the browser tests skip (TRI_REQUIRE_BROWSER=1 makes this a failure)")
	return ""
}

// newTab starts one headless browser for a test, and collects what its
// pages log as errors: console.error calls and uncaught exceptions.
func newTab(t *testing.T, limit time.Duration) (context.Context, func() []string) {
	exe := browser(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1400, 1000))
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancel)
	ctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	ctx, cancel3 := context.WithTimeout(ctx, limit)
	t.Cleanup(cancel3)
	var mu sync.Mutex
	var errs []string
	require.NoError(t, chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				errs = append(errs, fmt.Sprintf("console.%s: %s", ev.Type, strings.Join(args, " ")))
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError {
				errs = append(errs, fmt.Sprintf("browser log (%s): %s", ev.Entry.Source, ev.Entry.Text))
			}
		case *runtime.EventExceptionThrown:
			errs = append(errs, fmt.Sprintf("exception at line %d: %s", ev.ExceptionDetails.LineNumber, ev.ExceptionDetails.Text))
		}
	}))
	return ctx, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := errs
		errs = nil
		return out
	}
}

// reComment is the comment cudagen writes above a statement's code,
// quoting its line of the kernel's file ("// N: text"): an oracle for the
// line map that does not read Result.Lines.
var reComment = regexp.MustCompile(`^\s*// (\d+): `)

// pageCase is a page to load and the source lines whose links it checks.
type pageCase struct {
	name string
	html string
	page *Page
}

// buildPage writes the review page of file (its recorded launch) under dir.
func buildPage(t *testing.T, dir, file, line string, o Options) pageCase {
	t.Helper()
	pg, err := Build(file, line, o)
	require.NoError(t, err, file)
	var b bytes.Buffer
	require.NoError(t, pg.Write(&b))
	out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))+".html")
	require.NoError(t, os.WriteFile(out, b.Bytes(), 0o644))
	return pageCase{filepath.Base(file), out, pg}
}

// TestBrowser loads the page of every sample in headless Chromium: no
// console errors or exceptions; clicking each of (up to) eight source
// lines with code highlights the CUDA lines whose statement comment
// quotes that line and none quoting another, exactly the lines whose
// gutter names it; clicking a
// CUDA line marks its source line; every layout picture is drawn with
// cells. Pages of kernels outside the repository (Triton's tutorials),
// written by tri review under TRI_REVIEW_PAGES, are loaded and clicked
// too.
func TestBrowser(t *testing.T) {
	var more []string
	if extra := os.Getenv("TRI_REVIEW_PAGES"); extra != "" {
		var err error
		more, err = filepath.Glob(filepath.Join(extra, "*.html"))
		require.NoError(t, err)
	}
	// Four minutes for the samples' pages, and half a minute more for
	// each page of a larger kernel from outside.
	ctx, consoleErrors := newTab(t, 4*time.Minute+time.Duration(len(more))*30*time.Second)
	dir := t.TempDir()
	files, err := filepath.Glob("../samples/*.tri")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var cases []pageCase
	for _, f := range files {
		cases = append(cases, buildPage(t, dir, f, "", Options{NoNVRTC: true, Launch: &launch.Options{Arch: sampleArch(t, f)}}))
	}
	for _, m := range more {
		cases = append(cases, pageCase{name: filepath.Base(m), html: m})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			abs, err := filepath.Abs(c.html)
			require.NoError(t, err)
			start := time.Now()
			require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+abs), chromedp.WaitReady(chromedp.CSS("#linemap"))))
			load := time.Since(start)
			fi, err := os.Stat(abs)
			require.NoError(t, err)
			t.Logf("%s: %d KiB, loaded in %v", c.name, fi.Size()/1024, load.Round(time.Millisecond))
			cuda := cudaText(t, ctx)
			sources := linkedSources(cuda)
			require.NotEmpty(t, sources, "no CUDA line quotes a source line")
			for _, n := range pick(sources, 8) {
				require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("#s%d .txt", n)))))
				got := eval[[]int](t, ctx, `[...document.querySelectorAll("#cuda .row.linked")].map(e => +e.dataset.n)`)
				gutter := eval[[]int](t, ctx, fmt.Sprintf(`[...document.querySelectorAll("#cuda .row")].filter(e => e.querySelector(".gut").textContent == "%d").map(e => +e.dataset.n)`, n))
				// The comments quoting n are highlighted, no comment
				// quoting another line is, and the highlighted lines are
				// those whose gutter names n.
				for _, c := range quoting(cuda, n) {
					assert.Contains(t, got, c, "source line %d: its comment at CUDA line %d", n, c)
				}
				for _, c := range got {
					if m := reComment.FindStringSubmatch(cuda[c-1]); m != nil {
						assert.Equal(t, strconv.Itoa(n), m[1], "source line %d highlights CUDA line %d: %s", n, c, cuda[c-1])
					}
				}
				assert.Equal(t, gutter, got, "source line %d", n)
				picked := eval[[]string](t, ctx, `[...document.querySelectorAll("#src .row.picked")].map(e => e.id)`)
				assert.Equal(t, []string{fmt.Sprintf("s%d", n)}, picked)
			}
			// A CUDA line shows its source line.
			n := sources[len(sources)/2]
			c0 := quoting(cuda, n)[0] + 1 // the line after the comment: its code
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf("#c%d .txt", c0)))))
			picked := eval[[]string](t, ctx, `[...document.querySelectorAll("#src .row.picked")].map(e => e.id)`)
			assert.Equal(t, []string{fmt.Sprintf("s%d", n)}, picked, "CUDA line %d", c0)
			// Every layout picture is drawn: it has a size and its cells.
			drawn := eval[[]map[string]float64](t, ctx, `[...document.querySelectorAll("svg.layout")].map(s => {
				const r = s.getBoundingClientRect();
				return {w: r.width, h: r.height, cells: s.querySelectorAll(".cells rect").length};
			})`)
			if c.page != nil {
				assert.Len(t, drawn, len(c.page.Layouts))
			}
			for i, d := range drawn {
				assert.Greater(t, d["w"], 50.0, "layout %d", i)
				assert.Greater(t, d["h"], 20.0, "layout %d", i)
				assert.Greater(t, d["cells"], 0.0, "layout %d", i)
			}
			assert.Empty(t, consoleErrors(), "console errors")
		})
	}
}

// cudaText reads the CUDA pane's lines as the page shows them.
func cudaText(t *testing.T, ctx context.Context) []string {
	return eval[[]string](t, ctx, `[...document.querySelectorAll("#cuda .row .txt")].map(e => e.textContent)`)
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	require.NoError(t, err, js)
	return v
}

// linkedSources are the source lines that a statement comment of the
// CUDA quotes, in order.
func linkedSources(cuda []string) []int {
	seen := map[int]bool{}
	var out []int
	for _, l := range cuda {
		if m := reComment.FindStringSubmatch(l); m != nil && !strings.Contains(l, "Generated by tri") {
			n, _ := strconv.Atoi(m[1])
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// quoting returns the CUDA lines (1-based) whose statement comment
// quotes source line n.
func quoting(cuda []string, n int) []int {
	var out []int
	for i, l := range cuda {
		if m := reComment.FindStringSubmatch(l); m != nil && !strings.Contains(l, "Generated by tri") && m[1] == strconv.Itoa(n) {
			out = append(out, i+1)
		}
	}
	return out
}

// pick returns up to n of xs, spread over it.
func pick(xs []int, n int) []int {
	if len(xs) <= n {
		return xs
	}
	out := make([]int, 0, n)
	for i := range n {
		out = append(out, xs[i*len(xs)/n])
	}
	return out
}

// sampleArch is the target a sample is built for: its "# arch:" line's,
// else sm_80.
func sampleArch(t *testing.T, file string) string {
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	for _, l := range strings.Split(string(src), "\n") {
		if a, ok := strings.CutPrefix(l, "# arch: "); ok {
			return strings.TrimSpace(a)
		}
	}
	return "sm_80"
}
