package promote

import (
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/typing"
)

// PassName is the name the pass registers under.
const PassName = "promote-types"

// Options are promote-types' options.
type Options struct {
	// Style is the typing style to use; "" uses the module's
	// otir.typing_style.
	Style string
}

// Declare declares the options.
func (o *Options) Declare(d *passes.Decl) {
	d.Enum(&o.Style, "style", "", []string{string(typing.HLS), string(typing.CPP)},
		"typing style, hls or cpp; empty (the default) uses the module's otir.typing_style, itself hls when unset")
}

func init() {
	passes.Register(passes.Info{
		Name:    PassName,
		Summary: "Make Allo-style type promotion explicit: casts, and balanced n-ary trees in the hls style",
	}, newPass)
}

// newPass builds the pass from its options.
func newPass(o *Options, _ *passes.Context) (passes.Pass, error) {
	return passes.PassFunc(func(m *ir.Module) error {
		name := o.Style
		if name == "" {
			name = otir.TypingStyle(m)
		}
		style, err := typing.ParseStyle(name)
		if err != nil {
			return diag.Errorf(m.Op.Loc, "%s: %v", PassName, err)
		}
		return Run(m, style)
	}), nil
}
