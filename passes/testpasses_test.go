package passes

import (
	"errors"
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// testOptions are test-opts' options.
type testOptions struct {
	Style   string
	Count   int
	Verbose bool
	Label   string
}

func (o *testOptions) Declare(d *Decl) {
	d.Enum(&o.Style, "style", "hls", []string{"hls", "cpp"}, "typing style")
	d.Int(&o.Count, "count", 3, "a number")
	d.Bool(&o.Verbose, "verbose", false, "a flag")
	d.String(&o.Label, "label", "", "free text")
}

// checkedOptions are test-checked's options: one of a syntax of its own,
// and ranged integers.
type checkedOptions struct {
	Type        string
	Bits, Depth int
}

func (o *checkedOptions) Declare(d *Decl) {
	Var(d, &o.Type, "type", "", "fixed<W,I>", func(v string) (string, error) {
		if v != "" && !strings.HasPrefix(v, "fixed<") {
			return "", errors.New("expected fixed<W,I>")
		}
		return v, nil
	}, func(v string) string { return v })
	d.Int(&o.Bits, "bits", 8, "a width").Range(2, 53).Or("0", 0).Or("auto", -1)
	d.Int(&o.Depth, "depth", 0, "a depth").Min(-1)
}

// tagOptions are test-mark's options.
type tagOptions struct{ Tag string }

func (o *tagOptions) Declare(d *Decl) { d.String(&o.Tag, "tag", "x", "") }

// noop is a pass that does nothing.
func noop(*NoOptions, *Context) (Pass, error) {
	return PassFunc(func(*ir.Module) error { return nil }), nil
}

// Test passes, registered once for every test of the package.
func init() {
	Register(Info{Name: "test-noop", Summary: "does nothing"}, noop)
	Register(Info{Name: "test-opts", Summary: "has options"}, func(o *testOptions, _ *Context) (Pass, error) {
		if o.Label == "reject" {
			return nil, errors.New("label 'reject' is rejected")
		}
		return PassFunc(func(*ir.Module) error { return nil }), nil
	})
	Register(Info{Name: "test-checked", Summary: "has an option of its own syntax"}, func(*checkedOptions, *Context) (Pass, error) {
		return PassFunc(func(*ir.Module) error { return nil }), nil
	})
	Register(Info{Name: "test-fail", Title: "FailingPass"}, func(*NoOptions, *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			return diag.Errorf(ir.Location{File: "f.otir", Line: 3, Col: 5}, "cannot do this")
		}), nil
	})
	Register(Info{Name: "test-plain-error"}, func(*NoOptions, *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { return fmt.Errorf("plain failure") }), nil
	})
	Register(Info{Name: "test-wrapped"}, func(*NoOptions, *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			return fmt.Errorf("context: %w", diag.List{diag.Errorf(ir.Location{File: "f.otir", Line: 4, Col: 1}, "inner")})
		}), nil
	})
	Register(Info{Name: "test-panic"}, func(*NoOptions, *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { panic("boom") }), nil
	})
	// test-break adds an attribute the test verifier rejects.
	Register(Info{Name: "test-break"}, func(*NoOptions, *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { m.Op.SetAttr("broken", &ir.UnitAttr{}); return nil }), nil
	})
	// test-mark appends its "tag" option to the module's "trace" attribute.
	Register(Info{Name: "test-mark"}, func(o *tagOptions, _ *Context) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			s, _ := m.Op.StringAttr("trace")
			m.Op.SetAttr("trace", &ir.StringAttr{Value: s + o.Tag})
			return nil
		}), nil
	})
}

// testVerify rejects a module carrying the "broken" attribute.
func testVerify(m *ir.Module) diag.List {
	if m.Op.Attr("broken") != nil {
		return diag.List{diag.Errorf(ir.Location{File: "f.otir", Line: 1, Col: 1}, "module is broken")}
	}
	return nil
}

// progressPass reports two statuses when it has a report function.
type progressPass struct{ report func(fmt.Stringer) }

func (p *progressPass) SetProgress(report func(fmt.Stringer)) { p.report = report }

func (p *progressPass) Run(*ir.Module) error {
	if p.report != nil {
		p.report(Status("step 1"))
		p.report(Status("step 2"))
	}
	return nil
}

func init() {
	Register(Info{Name: "test-progress"}, func(*NoOptions, *Context) (Pass, error) {
		return &progressPass{}, nil
	})
}
