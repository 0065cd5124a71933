// Package progress draws a one-line status display on a terminal, as
// compilers and build tools do for long runs: the line is rewritten in
// place ("\r", then the text, then "\x1b[K" to erase the rest of the old
// line) at most once per interval, only once the run has lasted a delay
// (short runs draw nothing at all), and erased before any other output
// written through Writer and when the display stops, so that diagnostics
// and reports stay clean.
//
// The display knows nothing of what it shows: a phase (such as
// "[2/3] lower-tiles") and a status (what the phase is doing now, formatted
// only when drawn). It shows how long the phase has run and, once the
// status has not changed for a second, how long the step it describes has
// run: "otir-opt: [2/3] lower-tiles 4.2s: @k: ..., solving 64x64 (1.3s)".
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// Defaults of Options.
const (
	DefaultDelay    = 500 * time.Millisecond
	DefaultInterval = 100 * time.Millisecond
	// stepShown is how long a status must stay unchanged before the line
	// shows how long its step has run.
	stepShown = time.Second
)

// Options configure a Display.
type Options struct {
	// Prefix starts every line ("otir-opt: ").
	Prefix string
	// Delay is how long after New the first line may be drawn.
	Delay time.Duration
	// Interval is the least time between two draws.
	Interval time.Duration
	// Width is the terminal's width in columns: lines are cut to Width-1
	// characters so that they never wrap (0: no limit).
	Width int
	// Now is the clock (time.Now when nil); tests give a fake one.
	Now func() time.Time
}

// Display is a status line. Its methods may be called from any goroutine.
type Display struct {
	mu   sync.Mutex
	w    io.Writer
	opts Options

	start    time.Time
	phase    string
	phaseAt  time.Time
	status   fmt.Stringer
	statusAt time.Time

	shown   bool   // a line is on the screen
	line    string // the line last drawn
	drawn   time.Time
	stopped bool

	stop chan struct{}
	done chan struct{}
}

// New returns a display writing to w; the delay runs from now.
func New(w io.Writer, opts Options) *Display {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Display{w: w, opts: opts, start: opts.Now()}
}

// Phase starts a phase: name is shown with its elapsed time, and the status
// is cleared. An empty name makes the display idle: nothing is drawn until
// the next phase (a line already shown stays until then).
func (d *Display) Phase(name string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.opts.Now()
	d.phase, d.phaseAt, d.status, d.statusAt = name, now, nil, now
	d.draw(now)
}

// Status sets what the phase is doing now; s is formatted only when the
// line is drawn, so it must not change afterwards.
func (d *Display) Status(s fmt.Stringer) {
	d.mu.Lock()
	defer d.mu.Unlock()
	now := d.opts.Now()
	d.status, d.statusAt = s, now
	d.draw(now)
}

// Tick redraws the line if it is due (to update the elapsed times); Start
// calls it every interval.
func (d *Display) Tick() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.draw(d.opts.Now())
}

// Clear erases the line if one is shown; the next update draws it again.
func (d *Display) Clear() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.clear()
}

// Start calls Tick four times per interval on a goroutine of its own, until
// Stop (so that a line is redrawn about once per interval, never more).
func (d *Display) Start() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.stop != nil || d.stopped {
		return
	}
	d.stop, d.done = make(chan struct{}), make(chan struct{})
	interval := d.opts.Interval
	if interval <= 0 {
		interval = DefaultInterval
	}
	go func(stop, done chan struct{}) {
		defer close(done)
		t := time.NewTicker(interval / 4)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				d.Tick()
			}
		}
	}(d.stop, d.done)
}

// Stop ends the display: the ticking goroutine stops, the line is erased
// and nothing is drawn any more.
func (d *Display) Stop() {
	d.mu.Lock()
	stop, done := d.stop, d.done
	d.stop = nil
	d.stopped = true
	d.clear()
	d.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
}

// Writer returns a writer to w that erases the line before each write (w
// is normally the display's own stream, stderr): output written through it
// never mixes with the status line, which is drawn again on the next update.
func (d *Display) Writer(w io.Writer) io.Writer { return &clearingWriter{d: d, w: w} }

type clearingWriter struct {
	d *Display
	w io.Writer
}

func (c *clearingWriter) Write(p []byte) (int, error) {
	c.d.mu.Lock()
	defer c.d.mu.Unlock()
	c.d.clear()
	return c.w.Write(p)
}

// draw writes the line if the display is active and the delay and the
// interval since the last draw have passed.
func (d *Display) draw(now time.Time) {
	if d.stopped || d.phase == "" || now.Sub(d.start) < d.opts.Delay {
		return
	}
	if d.shown && now.Sub(d.drawn) < d.opts.Interval {
		return
	}
	line := d.render(now)
	if d.shown && line == d.line {
		return
	}
	d.write("\r" + line + "\x1b[K")
	d.shown, d.line, d.drawn = true, line, now
}

// render formats the line at time now: the prefix, the phase and its
// elapsed time, then the status. A line wider than the terminal loses the
// start of its status (its end says what runs now), or else its end.
func (d *Display) render(now time.Time) string {
	head := blank(d.opts.Prefix + d.phase + " " + seconds(now.Sub(d.phaseAt)))
	status := ""
	if d.status != nil {
		if status = blank(d.status.String()); status != "" {
			if step := now.Sub(d.statusAt); step >= stepShown {
				status += " (" + seconds(step) + ")"
			}
		}
	}
	if status == "" {
		return cut(head, d.opts.Width)
	}
	line := head + ": " + status
	w := d.opts.Width
	if w <= 0 || utf8.RuneCountInString(line) < w {
		return line
	}
	// Keep the end of the status: head + ": ..." + tail fits in w-1.
	keep := w - 1 - utf8.RuneCountInString(head) - len(": ...")
	if keep < 16 {
		return cut(line, w)
	}
	n := utf8.RuneCountInString(status)
	for i := range status {
		if n <= keep {
			return head + ": ..." + status[i:]
		}
		n--
	}
	return head
}

// seconds formats a duration as "4.2s".
func seconds(t time.Duration) string { return fmt.Sprintf("%.1fs", t.Seconds()) }

// blank replaces the control characters of s by spaces: a status never
// moves the cursor.
func blank(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

// cut shortens s to width-1 characters (no limit when width is 0), ending
// it with "..." when cut.
func cut(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) < width {
		return s
	}
	max := width - 1
	if max <= 3 {
		return ""
	}
	n := 0
	for i := range s {
		if n == max-3 {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// clear erases the line if one is shown.
func (d *Display) clear() {
	if d.shown {
		d.write("\r\x1b[K")
		d.shown = false
		d.line = ""
	}
}

// write writes to the stream, ignoring errors: the display never changes
// the outcome of a run.
func (d *Display) write(s string) { io.WriteString(d.w, s) }
