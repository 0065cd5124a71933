package passes

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

func mustPipeline(t *testing.T, text string) *Manager {
	t.Helper()
	pl, err := ParsePipeline(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	pm, err := NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

func newModule() *ir.Module { return ir.NewModule(ir.Location{File: "f.otir", Line: 1, Col: 1}) }

func TestManagerRun(t *testing.T) {
	cases := []struct {
		pipeline string
		verify   bool
		trace    string // the module's trace attribute afterwards
		diags    string // rendered diagnostics, notes included
	}{
		{pipeline: "builtin.module(test-mark{tag=a},test-mark{tag=b},test-mark{tag=c})", trace: "abc"},
		{pipeline: "builtin.module(test-mark{tag=a},test-fail,test-mark{tag=c})", trace: "a",
			diags: "f.otir:3:5: error: cannot do this\n"},
		{pipeline: "builtin.module(test-plain-error)",
			diags: "f.otir:1:1: error: pass 'test-plain-error' failed: plain failure\n"},
		{pipeline: "builtin.module(test-wrapped)",
			diags: "f.otir:4:1: error: inner\n"},
		{pipeline: "builtin.module(test-panic,test-mark)",
			diags: "f.otir:1:1: error: pass 'test-panic' crashed: boom\nnote: this is a bug in the pass, please report it with this input\n"},
		{pipeline: "builtin.module(test-mark{tag=a},test-break,test-mark{tag=c})", verify: true, trace: "a",
			diags: "f.otir:1:1: error: module is broken\nnote: the IR was made invalid by pass 'test-break' (TestBreak)\n"},
		{pipeline: "builtin.module(test-mark{tag=a},test-break,test-mark{tag=c})", verify: false, trace: "ac"},
	}
	for _, c := range cases {
		pm := mustPipeline(t, c.pipeline)
		if c.verify {
			pm.Verify = testVerify
		}
		m := newModule()
		ds := pm.Run(m)
		var sb strings.Builder
		diag.NewSourceMgr().RenderAll(&sb, ds)
		if sb.String() != c.diags {
			t.Errorf("%s: diagnostics\n%s\nwant\n%s", c.pipeline, sb.String(), c.diags)
		}
		if got, _ := m.Op.StringAttr("trace"); got != c.trace {
			t.Errorf("%s: trace %q, want %q", c.pipeline, got, c.trace)
		}
	}
}

func TestNewManagerErrors(t *testing.T) {
	pl, err := ParsePipeline("builtin.module(test-opts{label=reject})")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewManager(pl); err == nil || err.Error() != "pass 'test-opts': label 'reject' is rejected" {
		t.Errorf("got %v", err)
	}
	bad := PassSpec{Info: &Info{Name: "nil-pass", build: func(any, *Context) (Pass, error) { return nil, nil }}}
	if err := (&Manager{}).Add(bad); err == nil || err.Error() != "pass 'nil-pass' could not be created" {
		t.Errorf("got %v", err)
	}
	crash := PassSpec{Info: &Info{Name: "crash", build: func(any, *Context) (Pass, error) { panic("no") }}}
	if err := (&Manager{}).Add(crash); err == nil || err.Error() != "pass 'crash' could not be created: no" {
		t.Errorf("got %v", err)
	}
}

// recorder logs every hook call.
type recorder struct{ log []string }

func (r *recorder) BeforePass(e *Entry, _ *ir.Module) { r.log = append(r.log, "before "+e.Name()) }
func (r *recorder) AfterPass(e *Entry, _ *ir.Module, failed bool) {
	r.log = append(r.log, "after "+e.Name()+map[bool]string{true: " failed", false: ""}[failed])
}
func (r *recorder) BeforeVerify(e *Entry, _ *ir.Module) { r.log = append(r.log, "verify "+e.Name()) }
func (r *recorder) AfterVerify(e *Entry, _ *ir.Module, failed bool) {
	r.log = append(r.log, "verified "+e.Name()+map[bool]string{true: " failed", false: ""}[failed])
}

func TestInstrumentationOrder(t *testing.T) {
	pm := mustPipeline(t, "builtin.module(test-noop,test-break,test-noop)")
	pm.Verify = testVerify
	r := &recorder{}
	pm.AddInstrumentation(r)
	pm.Run(newModule())
	want := "before test-noop|after test-noop|verify test-noop|verified test-noop|before test-break|after test-break|verify test-break|verified test-break failed"
	if got := strings.Join(r.log, "|"); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	r.log = nil
	pm = mustPipeline(t, "builtin.module(test-fail,test-noop)")
	pm.AddInstrumentation(r)
	pm.Run(newModule())
	if got := strings.Join(r.log, "|"); got != "before test-fail|after test-fail failed" {
		t.Errorf("got %s", got)
	}
}

func TestIRPrinter(t *testing.T) {
	cases := []struct {
		pipeline      string
		before, after func(*Entry) bool
		generic       bool
		want          string
	}{
		{"builtin.module(test-mark{tag=a})", nil, AllPasses, false,
			"// -----// IR Dump After TestMark (test-mark) //----- //\nmodule attributes {trace = \"a\"} {\n}\n\n"},
		{"builtin.module(test-mark{tag=a},test-noop)", PassSet([]string{"test-noop"}), nil, false,
			"// -----// IR Dump Before TestNoop (test-noop) //----- //\nmodule attributes {trace = \"a\"} {\n}\n\n"},
		{"builtin.module(test-noop)", AllPasses, nil, true,
			"// -----// IR Dump Before TestNoop (test-noop) //----- //\n\"builtin.module\"() ({\n^bb0:\n}) : () -> ()\n\n"},
		{"builtin.module(test-fail)", nil, AllPasses, false,
			"// -----// IR Dump After FailingPass Failed (test-fail) //----- //\nmodule {\n}\n\n"},
		{"builtin.module(test-noop)", nil, PassSet([]string{"other"}), false, ""},
	}
	for _, c := range cases {
		pm := mustPipeline(t, c.pipeline)
		var sb strings.Builder
		pm.AddInstrumentation(&IRPrinter{W: &sb, Before: c.before, After: c.after, Opts: ir.PrintOptions{Generic: c.generic}})
		pm.Run(newModule())
		if sb.String() != c.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", c.pipeline, sb.String(), c.want)
		}
	}
}

func TestTimingReport(t *testing.T) {
	// A fake clock advancing 1ms per reading makes the report deterministic.
	clock := time.Unix(0, 0)
	tm := &Timer{start: clock, now: func() time.Time { clock = clock.Add(time.Millisecond); return clock }}
	tm.Time("Parser", func() {})
	pm := mustPipeline(t, "builtin.module(test-noop)")
	pm.Verify = testVerify
	pm.AddInstrumentation(&TimingInstrumentation{T: tm})
	pm.Run(newModule())
	var sb strings.Builder
	tm.Report(&sb)
	want := `===-------------------------------------------------------------------------===
                         ... Execution time report ...
===-------------------------------------------------------------------------===
  Total Execution Time: 0.0070 seconds

  ----Wall Time----  ----Name----
    0.0010 ( 14.3%)  Parser
    0.0010 ( 14.3%)  TestNoop
    0.0010 ( 14.3%)  Verifier
    0.0040 ( 57.1%)  Rest
    0.0070 (100.0%)  Total
`
	if sb.String() != want {
		t.Errorf("got\n%s\nwant\n%s", sb.String(), want)
	}
	// A real timer's report has the same shape.
	real := NewTimer()
	real.Record("Output", 0)
	sb.Reset()
	real.Report(&sb)
	if !regexp.MustCompile(`Total Execution Time: \d+\.\d{4} seconds\n\n  ----Wall Time----  ----Name----\n +\d+\.\d{4} \(\s*\d+\.\d%\)  Output\n`).MatchString(sb.String()) {
		t.Errorf("unexpected report:\n%s", sb.String())
	}
}

func TestConstructorErrorNamingThePass(t *testing.T) {
	info := &Info{Name: "named", build: func(any, *Context) (Pass, error) { return nil, errors.New("named: bad option") }}
	if err := (&Manager{}).Add(PassSpec{Info: info}); err == nil || err.Error() != "named: bad option" {
		t.Errorf("got %v", err)
	}
}
