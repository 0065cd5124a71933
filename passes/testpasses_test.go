package passes

import (
	"errors"
	"fmt"
	"strings"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// Test passes, registered once for every test of the package.
func init() {
	Register(Info{Name: "test-noop", Summary: "does nothing", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(*ir.Module) error { return nil }), nil
	}})
	Register(Info{
		Name:    "test-opts",
		Summary: "has options",
		Options: []Option{
			{Name: "style", Help: "typing style", Default: "hls", Values: []string{"hls", "cpp"}},
			{Name: "count", Help: "a number", Default: "3", Kind: IntOption},
			{Name: "verbose", Help: "a flag", Default: "false", Kind: BoolOption},
			{Name: "label", Help: "free text", Default: ""},
		},
		New: func(opts map[string]string) (Pass, error) {
			if opts["label"] == "reject" {
				return nil, errors.New("label 'reject' is rejected")
			}
			return PassFunc(func(*ir.Module) error { return nil }), nil
		},
	})
	Register(Info{
		Name:    "test-checked",
		Summary: "has an option of its own syntax",
		Options: []Option{{Name: "type", Help: "fixed<W,I>", Check: func(v string) error {
			if !strings.HasPrefix(v, "fixed<") {
				return errors.New("expected fixed<W,I>")
			}
			return nil
		}}},
		New: func(map[string]string) (Pass, error) { return PassFunc(func(*ir.Module) error { return nil }), nil },
	})
	Register(Info{Name: "test-fail", Title: "FailingPass", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			return diag.Errorf(ir.Location{File: "f.otir", Line: 3, Col: 5}, "cannot do this")
		}), nil
	}})
	Register(Info{Name: "test-plain-error", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { return fmt.Errorf("plain failure") }), nil
	}})
	Register(Info{Name: "test-wrapped", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			return fmt.Errorf("context: %w", diag.List{diag.Errorf(ir.Location{File: "f.otir", Line: 4, Col: 1}, "inner")})
		}), nil
	}})
	Register(Info{Name: "test-panic", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { panic("boom") }), nil
	}})
	// test-break adds an attribute the test verifier rejects.
	Register(Info{Name: "test-break", New: func(map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error { m.Op.SetAttr("broken", &ir.UnitAttr{}); return nil }), nil
	}})
	// test-mark appends its "tag" option to the module's "trace" attribute.
	Register(Info{Name: "test-mark", Options: []Option{{Name: "tag", Default: "x"}}, New: func(opts map[string]string) (Pass, error) {
		return PassFunc(func(m *ir.Module) error {
			s, _ := m.Op.StringAttr("trace")
			m.Op.SetAttr("trace", &ir.StringAttr{Value: s + opts["tag"]})
			return nil
		}), nil
	}})
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
	Register(Info{Name: "test-progress", New: func(map[string]string) (Pass, error) {
		return &progressPass{}, nil
	}})
}
