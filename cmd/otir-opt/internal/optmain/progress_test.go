package optmain

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/internal/progress"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// runOptTerm runs otir-opt with stderr taken for a terminal (or not).
func runOptTerm(terminal bool, stdin string, args ...string) result {
	var out, errb bytes.Buffer
	code := Main(append([]string{"otir-opt"}, args...), Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Parse: fakeParse, Verify: fakeVerify,
		StderrTerminal: func() (bool, int) { return terminal, 60 },
	})
	return result{out.String(), errb.String(), code}
}

const progressInput = "const 1\nconst 2\nadd 0 1\n"

// --progress=always draws status lines on stderr (here at once: the hidden
// --progress-delay=0), erases them at the end, and changes nothing else.
func TestProgressAlways(t *testing.T) {
	never := runOptTerm(false, progressInput, "--cse", "--dce", "--progress=never")
	always := runOptTerm(false, progressInput, "--cse", "--dce", "--progress=always", "--progress-delay=0")
	if never.code != 0 || always.code != 0 {
		t.Fatalf("exit codes %d and %d: %s%s", never.code, always.code, never.stderr, always.stderr)
	}
	if always.stdout != never.stdout {
		t.Errorf("stdout with --progress=always\n%s\ndiffers from --progress=never\n%s", always.stdout, never.stdout)
	}
	if never.stderr != "" {
		t.Errorf("--progress=never wrote %q", never.stderr)
	}
	// The first step draws at once; the next ones come within the
	// interval of a tenth of a second, so are not drawn.
	if !strings.HasPrefix(always.stderr, "\rotir-opt: parsing 0.0s\x1b[K") ||
		!strings.HasSuffix(always.stderr, "\r\x1b[K") {
		t.Errorf("stderr %q", always.stderr)
	}
	if strings.Contains(always.stderr, "\n") {
		t.Errorf("the status lines hold a newline: %q", always.stderr)
	}
}

// auto draws only on a terminal; the default delay keeps a short run quiet
// even there.
func TestProgressAuto(t *testing.T) {
	for _, c := range []struct {
		terminal bool
		args     []string
		drawn    bool
	}{
		{false, []string{"--progress-delay=0"}, false},
		{false, []string{"--progress=auto", "--progress-delay=0"}, false},
		{true, []string{"--progress-delay=0"}, true},
		{true, nil, false},                           // shorter than half a second
		{true, []string{"--progress=always"}, false}, // idem
		{true, []string{"--progress=never", "--progress-delay=0"}, false},
	} {
		r := runOptTerm(c.terminal, progressInput, append([]string{"--cse"}, c.args...)...)
		if r.code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, r.code, r.stderr)
		}
		if drawn := strings.Contains(r.stderr, "\r"); drawn != c.drawn {
			t.Errorf("terminal=%v %v: drawn=%v, want %v (stderr %q)", c.terminal, c.args, drawn, c.drawn, r.stderr)
		}
	}
}

// A diagnostic starts on a clean line: the status line is erased before it.
func TestProgressBeforeDiagnostics(t *testing.T) {
	r := runOptTerm(true, "const 1\n", "--test-break", "--progress-delay=0")
	if r.code != 1 {
		t.Fatalf("exit %d: %q", r.code, r.stderr)
	}
	i := strings.Index(r.stderr, "<stdin>:1:1: error: op is bad")
	if i < 0 {
		t.Fatalf("no diagnostic in %q", r.stderr)
	}
	if !strings.HasSuffix(r.stderr[:i], "\r\x1b[K") {
		t.Errorf("the diagnostic does not follow an erased line: %q", r.stderr)
	}
	if strings.Contains(r.stderr[i:], "\r") {
		t.Errorf("status lines after the diagnostic: %q", r.stderr[i:])
	}
}

// --progress takes auto, always or never: anything else is a usage error
// (exit 1, as every usage error).
func TestProgressUsage(t *testing.T) {
	r := runOptTerm(true, progressInput, "--progress=bogus")
	if r.code != ExitUsage || r.stdout != "" || r.stderr != "otir-opt: invalid --progress=bogus (expected auto, always or never)\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = runOptTerm(true, progressInput, "--progress-delay=-1s")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "invalid --progress-delay=-1s") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// reportingPass reports one status when asked to (passes.ProgressReporter).
type reportingPass struct{ report func(fmt.Stringer) }

func (p *reportingPass) SetProgress(report func(fmt.Stringer)) { p.report = report }

func (p *reportingPass) Run(*ir.Module) error {
	if p.report != nil {
		p.report(passes.Status("half way"))
	}
	return nil
}

func init() {
	passes.Register(passes.Info{Name: "test-report", Summary: "reports its progress"},
		func(*passes.NoOptions, *passes.Context) (passes.Pass, error) { return &reportingPass{}, nil })
}

// The instrumentation shows each pass as [i/n] name, then its verifier run,
// with the pass's own progress after a colon.
func TestProgressInstrumentation(t *testing.T) {
	var out strings.Builder
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	d := progress.New(&out, progress.Options{Prefix: "p: ", Now: func() time.Time { return at }})
	pl, err := passes.ParsePipeline("builtin.module(test-report,cse)")
	if err != nil {
		t.Fatal(err)
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	pm.Verify = fakeVerify
	pm.AddInstrumentation(newProgressInstrumentation(d, pm))
	m, err := fakeParse("f", progressInput, 0)
	if err != nil {
		t.Fatal(err)
	}
	if ds := pm.Run(m); len(ds) > 0 {
		t.Fatal(ds)
	}
	d.Stop()
	got := strings.NewReplacer("\r", "|", "\x1b[K", "").Replace(out.String())
	want := "|p: [1/2] test-report 0.0s|p: [1/2] test-report 0.0s: half way|p: [1/2] test-report verifier 0.0s" +
		"|p: [2/2] cse 0.0s|p: [2/2] cse verifier 0.0s|"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
