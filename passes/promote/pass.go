package promote

import (
	"fmt"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/typing"
)

// PassName is the name the pass registers under.
const PassName = "promote-types"

func init() {
	passes.Register(passes.Info{
		Name:    PassName,
		Summary: "Make Allo-style type promotion explicit: casts, and balanced n-ary trees in the hls style",
		Options: []passes.Option{{
			Name: "style",
			Help: "typing style, hls or cpp; empty (the default) uses the module's otir.typing_style, itself hls when unset",
		}},
		New: newPass,
	})
}

// newPass builds the pass from its options.
func newPass(opts map[string]string) (passes.Pass, error) {
	forced := opts["style"]
	if forced != "" {
		if _, err := typing.ParseStyle(forced); err != nil {
			return nil, fmt.Errorf("%s: option style: %v", PassName, err)
		}
	}
	return passes.PassFunc(func(m *ir.Module) error {
		name := forced
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
