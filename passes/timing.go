package passes

import (
	"fmt"
	"io"
	"time"

	"github.com/otir-dev/otir/ir"
)

// Timer records named wall-time rows in execution order, for the report of
// --timing (MLIR's --mlir-timing).
type Timer struct {
	start time.Time
	rows  []TimingRow
	now   func() time.Time
}

// TimingRow is one measured step.
type TimingRow struct {
	Name string
	Wall time.Duration
}

// NewTimer starts a timer; the total runs from now until Report.
func NewTimer() *Timer { return &Timer{start: time.Now(), now: time.Now} }

// Record adds a row.
func (t *Timer) Record(name string, d time.Duration) { t.rows = append(t.rows, TimingRow{name, d}) }

// Time runs fn and records its duration under name.
func (t *Timer) Time(name string, fn func()) {
	start := t.now()
	fn()
	t.Record(name, t.now().Sub(start))
}

// Rows returns the rows recorded so far.
func (t *Timer) Rows() []TimingRow { return t.rows }

// Report writes MLIR's execution time report: every row in order, then
// "Rest" (time not covered by a row) and "Total".
func (t *Timer) Report(w io.Writer) {
	total := t.now().Sub(t.start)
	var covered time.Duration
	for _, r := range t.rows {
		covered += r.Wall
	}
	rest := max(total-covered, 0)
	if covered > total {
		total = covered
	}
	const rule = "===-------------------------------------------------------------------------==="
	fmt.Fprintln(w, rule)
	fmt.Fprintln(w, "                         ... Execution time report ...")
	fmt.Fprintln(w, rule)
	fmt.Fprintf(w, "  Total Execution Time: %.4f seconds\n\n", total.Seconds())
	fmt.Fprintln(w, "  ----Wall Time----  ----Name----")
	row := func(name string, d time.Duration) {
		pct := 0.0
		if total > 0 {
			pct = 100 * d.Seconds() / total.Seconds()
		}
		fmt.Fprintf(w, "  %8.4f (%5.1f%%)  %s\n", d.Seconds(), pct, name)
	}
	for _, r := range t.rows {
		row(r.Name, r.Wall)
	}
	row("Rest", rest)
	row("Total", total)
}

// TimingInstrumentation records each pass (under its title, "CSE") and each
// verifier run ("Verifier") in a Timer.
type TimingInstrumentation struct {
	T     *Timer
	start time.Time
}

func (ti *TimingInstrumentation) BeforePass(*Entry, *ir.Module) { ti.start = ti.T.now() }

func (ti *TimingInstrumentation) AfterPass(e *Entry, _ *ir.Module, _ bool) {
	ti.T.Record(e.Title(), ti.T.now().Sub(ti.start))
}

func (ti *TimingInstrumentation) BeforeVerify(*Entry, *ir.Module) { ti.start = ti.T.now() }

func (ti *TimingInstrumentation) AfterVerify(*Entry, *ir.Module, bool) {
	ti.T.Record("Verifier", ti.T.now().Sub(ti.start))
}
