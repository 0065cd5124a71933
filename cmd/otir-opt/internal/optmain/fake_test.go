package optmain

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/otir-dev/otir/cmd/internal/registry"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// The tests drive otir-opt with a tiny stand-in parser, so that the driver is
// tested whatever the state of the real one. One instruction per line:
//
//	const N       %v = otir.constant N : index
//	add I J       %v = otir.add %vI, %vJ : index (values numbered from 0)
//	bad           a constant the fake verifier rejects (error + note)
//	warn          a constant the fake verifier warns about
//	parse-error   a parse error at this word
//
// `//` starts a comment. Everything goes into one kernel @k.
func fakeParse(file, src string, lineOffset int) (*ir.Module, error) {
	m := ir.NewModule(ir.Location{File: file, Line: lineOffset + 1, Col: 1})
	var body *ir.Block
	var vals []*ir.Value
	for i, line := range strings.Split(src, "\n") {
		if c := strings.Index(line, "//"); c >= 0 {
			line = line[:c]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		loc := ir.Location{File: file, Line: lineOffset + i + 1, Col: strings.Index(line, f[0]) + 1}
		if body == nil {
			b := ir.NewBuilder(m.Body())
			b.Loc = loc
			_, body = otir.Kernel(b, "k", nil, nil)
		}
		b := ir.NewBuilder(body)
		b.Loc = loc
		switch f[0] {
		case "const":
			n, _ := strconv.Atoi(f[1])
			vals = append(vals, otir.ConstInt(b, int64(n), ir.Index()))
		case "add":
			x, _ := strconv.Atoi(f[1])
			y, _ := strconv.Atoi(f[2])
			vals = append(vals, b.Binary(otir.OpAdd, vals[x], vals[y], ir.Index()))
		case "bad", "warn":
			v := otir.ConstInt(b, 0, ir.Index())
			v.Def.SetAttr(f[0], &ir.UnitAttr{})
			vals = append(vals, v)
		default:
			return nil, diag.Errorf(loc, "unknown instruction '%s'", f[0])
		}
	}
	if body != nil {
		otir.Return(ir.NewBuilder(body))
	}
	return m, nil
}

// fakeVerify rejects "bad" constants and warns about "warn" ones.
func fakeVerify(m *ir.Module) diag.List {
	var l diag.List
	m.Walk(func(op *ir.Operation) bool {
		if op.Attr("bad") != nil {
			l = append(l, diag.Errorf(op.Loc, "op is bad").Note(op.Loc, "bad op here"))
		}
		if op.Attr("warn") != nil {
			l = append(l, &diag.Diagnostic{Severity: diag.Warning, Loc: op.Loc, Msg: "op is suspicious"})
		}
		return true
	})
	return l
}

// Test passes, added to the registry for this package's tests.
func init() {
	passes.Register(passes.Info{
		Name: "test-break", Summary: "marks the first constant bad",
	}, func(*passes.NoOptions, *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error {
			done := false
			m.Walk(func(op *ir.Operation) bool {
				if op.Name == otir.OpConstant && !done {
					op.SetAttr("bad", &ir.UnitAttr{})
					done = true
				}
				return !done
			})
			return nil
		}), nil
	})
	passes.Register(passes.Info{
		Name: "test-fail", Summary: "fails at the first constant",
	}, func(*passes.NoOptions, *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(m *ir.Module) error {
			var err error
			m.Walk(func(op *ir.Operation) bool {
				if op.Name == otir.OpConstant && err == nil {
					err = diag.Errorf(op.Loc, "cannot handle this constant")
				}
				return err == nil
			})
			return err
		}), nil
	})
	passes.Register(passes.Info{
		Name: "test-options", Summary: "has options",
	}, func(*testOptions, *passes.Context) (passes.Pass, error) {
		return passes.PassFunc(func(*ir.Module) error { return nil }), nil
	})
}

// testOptions are test-options' options.
type testOptions struct {
	Mode  string
	Level int
}

func (o *testOptions) Declare(d *passes.Decl) {
	d.Enum(&o.Mode, "mode", "a", []string{"a", "b"}, "the mode")
	d.Int(&o.Level, "level", 1, "the level")
}

// result is what one otir-opt run printed.
type result struct {
	stdout, stderr string
	code           int
}

// runOpt runs otir-opt in-process in dir (relative file names resolve there).
func runOpt(t *testing.T, dir, stdin string, args ...string) result {
	t.Helper()
	if dir != "" {
		wd, _ := os.Getwd()
		if err := os.Chdir(dir); err != nil {
			t.Fatal(err)
		}
		defer os.Chdir(wd)
	}
	var out, errb bytes.Buffer
	code := Main(append([]string{"otir-opt"}, args...), Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Parse: fakeParse, Verify: fakeVerify,
	})
	return result{out.String(), errb.String(), code}
}

// writeFiles creates files in a new temporary directory and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
