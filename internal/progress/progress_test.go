package progress

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// clock is a fake clock that tests move by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func newTest(width int) (*Display, *strings.Builder, *clock) {
	c := &clock{t: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	var sb strings.Builder
	d := New(&sb, Options{Prefix: "tool: ", Delay: DefaultDelay, Interval: DefaultInterval, Width: width, Now: c.now})
	return d, &sb, c
}

// visible writes the raw output with its control sequences spelled out.
func visible(s string) string {
	return strings.NewReplacer("\r", `\r`, "\x1b[K", `\K`, "\n", `\n`).Replace(s)
}

// counting is a status that counts how often it is formatted.
type counting struct {
	text string
	n    *int
}

func (c counting) String() string { *c.n++; return c.text }

// A run shorter than the delay draws nothing at all, whatever it reports.
func TestShortRunDrawsNothing(t *testing.T) {
	d, out, c := newTest(0)
	formatted := 0
	d.Phase("[1/2] parse")
	for i := 0; i < 40; i++ {
		d.Status(counting{fmt.Sprint(i), &formatted})
		d.Tick()
		c.advance(10 * time.Millisecond) // 400 ms in all
	}
	d.Phase("[2/2] lower")
	d.Tick()
	d.Stop()
	if out.Len() != 0 {
		t.Errorf("a 400 ms run wrote %q", visible(out.String()))
	}
	if formatted != 0 {
		t.Errorf("the status was formatted %d times without being drawn", formatted)
	}
}

// After the delay the line is drawn in place, at most once per interval,
// formatting the status only when drawing, and erased at the end.
func TestThrottling(t *testing.T) {
	d, out, c := newTest(0)
	formatted := 0
	d.Phase("[1/1] lower-tiles")
	c.advance(500 * time.Millisecond)
	for i := 0; i < 100; i++ { // 100 updates in 500 ms
		d.Status(counting{fmt.Sprintf("row %d", i), &formatted})
		c.advance(5 * time.Millisecond)
	}
	draws := strings.Count(out.String(), "\r")
	// The first update after the delay draws, then one per 100 ms: 5 in all.
	if draws != 5 {
		t.Errorf("%d draws for 500 ms of updates, want 5:\n%s", draws, visible(out.String()))
	}
	if formatted != draws {
		t.Errorf("the status was formatted %d times for %d draws", formatted, draws)
	}
	if !strings.HasPrefix(out.String(), "\rtool: [1/1] lower-tiles 0.5s: row 0\x1b[K") {
		t.Errorf("first line %q", visible(out.String()))
	}
	out.Reset()
	d.Stop()
	if out.String() != "\r\x1b[K" {
		t.Errorf("Stop wrote %q, want the line erased", visible(out.String()))
	}
	out.Reset()
	d.Status(counting{"late", &formatted})
	d.Tick()
	d.Phase("late phase")
	if out.Len() != 0 {
		t.Errorf("a stopped display wrote %q", visible(out.String()))
	}
}

// A status unchanged for a second shows how long its step has run; ticks
// refresh the elapsed times while the pass reports nothing.
func TestStepElapsed(t *testing.T) {
	d, out, c := newTest(0)
	d.Phase("[2/3] lower-tiles")
	c.advance(time.Second)
	d.Status(fmt.Stringer(stringer("@k: cmvm 3/16, solving 64x64")))
	c.advance(900 * time.Millisecond)
	d.Tick()
	c.advance(300 * time.Millisecond)
	d.Tick()
	want := `\rtool: [2/3] lower-tiles 1.0s: @k: cmvm 3/16, solving 64x64\K` +
		`\rtool: [2/3] lower-tiles 1.9s: @k: cmvm 3/16, solving 64x64\K` +
		`\rtool: [2/3] lower-tiles 2.2s: @k: cmvm 3/16, solving 64x64 (1.2s)\K`
	if got := visible(out.String()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

type stringer string

func (s stringer) String() string { return string(s) }

// Output written through Writer erases the line first, so a diagnostic
// starts at the beginning of a clean line; the line comes back on the next
// update, below it.
func TestClearBeforeDiagnostic(t *testing.T) {
	d, out, c := newTest(0)
	errw := d.Writer(out)
	d.Phase("[1/1] lower-tiles")
	c.advance(600 * time.Millisecond)
	d.Tick()
	fmt.Fprintf(errw, "k.otir:3:5: error: cannot be lowered\n")
	c.advance(100 * time.Millisecond)
	d.Tick()
	d.Stop()
	fmt.Fprintf(errw, "after\n")
	want := `\rtool: [1/1] lower-tiles 0.6s\K\r\K` + `k.otir:3:5: error: cannot be lowered\n` +
		`\rtool: [1/1] lower-tiles 0.7s\K\r\K` + `after\n`
	if got := visible(out.String()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Output through Writer with no line shown is left alone.
	d2, out2, _ := newTest(0)
	fmt.Fprint(d2.Writer(out2), "plain\n")
	if out2.String() != "plain\n" {
		t.Errorf("got %q", visible(out2.String()))
	}
}

// An idle display (empty phase) draws nothing; the line is cut to the
// terminal's width, and control characters of a status are blanked.
func TestIdleAndWidth(t *testing.T) {
	d, out, c := newTest(20)
	c.advance(time.Second)
	d.Phase("")
	d.Status(stringer("x"))
	d.Tick()
	if out.Len() != 0 {
		t.Errorf("an idle display wrote %q", visible(out.String()))
	}
	d.Phase("phase")
	d.Status(stringer("a\nlong status line that does not fit"))
	c.advance(time.Second)
	d.Tick()
	lines := strings.Split(strings.ReplaceAll(out.String(), "\x1b[K", ""), "\r")
	for _, l := range lines {
		if len(l) > 19 {
			t.Errorf("line %q is wider than 19 columns", l)
		}
		if strings.Contains(l, "\n") {
			t.Errorf("line %q holds a newline", l)
		}
	}
	if got := lines[len(lines)-1]; got != "tool: phase 1.0s..." {
		t.Errorf("cut line %q", got)
	}

	// With room for a part of it, the status loses its start, not its end
	// (which says what runs now).
	d, out, c = newTest(44)
	d.Phase("phase")
	c.advance(time.Second)
	d.Status(stringer("@k: 123 dais ops, cmvm 3/16, solving 64x64"))
	c.advance(time.Second)
	d.Tick()
	lines = strings.Split(strings.ReplaceAll(out.String(), "\x1b[K", ""), "\r")
	if got, want := lines[len(lines)-1], "tool: phase 2.0s: ..., solving 64x64 (1.0s)"; got != want {
		t.Errorf("cut line %q, want %q", got, want)
	}
	if n := len(lines[len(lines)-1]); n > 43 {
		t.Errorf("line of %d columns for a width of 44", n)
	}
}

// The ticking goroutine draws without updates, and Stop ends it and
// erases the line (with the real clock).
func TestStartStop(t *testing.T) {
	var out safeBuilder
	d := New(&out, Options{Delay: 0, Interval: 5 * time.Millisecond})
	d.Start()
	d.Phase("busy")
	deadline := time.Now().Add(5 * time.Second)
	for strings.Count(out.String(), "\r") < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	d.Stop()
	s := out.String()
	if !strings.HasPrefix(s, "\rbusy 0.0s\x1b[K") || !strings.HasSuffix(s, "\r\x1b[K") || strings.Count(s, "\r") < 3 {
		t.Errorf("output %q", visible(s))
	}
	d.Stop() // a second Stop is harmless
}

// A file is not a terminal.
func TestTerminal(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "x")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ok, w := Terminal(f); ok || w != 0 {
		t.Errorf("a file is a terminal of width %d", w)
	}
	if ok, _ := Terminal(nil); ok {
		t.Error("nil is a terminal")
	}
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		defer null.Close()
		if ok, _ := Terminal(null); ok && isLinux {
			t.Error("/dev/null is a terminal")
		}
	}
}
