package optmain

import (
	"flag"
	"strings"

	"github.com/otir-dev/otir/passes"
)

// passUse is one short pass flag on the command line: `--cse` or
// `--promote-types=style=cpp`.
type passUse struct {
	name, options string
}

// passRecorder collects the short pass flags in command-line order, which is
// the pipeline order.
type passRecorder struct{ uses []passUse }

// passFlag is the flag `--<pass>[=options]` generated for a registered pass.
// It behaves as a boolean flag that also accepts an option list as value.
type passFlag struct {
	info *passes.Info
	rec  *passRecorder
	set  bool
}

// passValue is the flag.Value behind a passFlag.
type passValue struct{ f *passFlag }

func (v *passValue) String() string   { return "" }
func (v *passValue) IsBoolFlag() bool { return true }

// Set records one use; the options are checked later, with the pipeline.
func (v *passValue) Set(s string) error {
	if s == "true" {
		s = ""
	}
	v.f.set = true
	v.f.rec.uses = append(v.f.rec.uses, passUse{v.f.info.Name, s})
	return nil
}

func (f *passFlag) Apply(set *flag.FlagSet) error {
	set.Var(&passValue{f}, f.info.Name, f.info.Summary)
	return nil
}

func (f *passFlag) Names() []string        { return []string{f.info.Name} }
func (f *passFlag) IsSet() bool            { return f.set }
func (f *passFlag) IsVisible() bool        { return true }
func (f *passFlag) GetCategory() string    { return "Passes (run in command-line order)" }
func (f *passFlag) TakesValue() bool       { return false }
func (f *passFlag) IsSliceFlag() bool      { return true } // a pass may run more than once
func (f *passFlag) GetUsage() string       { return f.info.Summary }
func (f *passFlag) GetValue() string       { return "" }
func (f *passFlag) GetDefaultText() string { return "" }
func (f *passFlag) GetEnvVars() []string   { return nil }

// String is the flag's line in --help: `--promote-types[=style=hls|cpp]  summary`.
func (f *passFlag) String() string {
	return "--" + f.info.Name + optionSynopsis(f.info) + "\t" + f.info.Summary
}

// optionSynopsis is "[=opt=<values> ...]" or "" for a pass without options.
func optionSynopsis(info *passes.Info) string {
	opts := info.Options()
	if len(opts) == 0 {
		return ""
	}
	var parts []string
	for _, o := range opts {
		parts = append(parts, o.Name+"="+o.ValueHint())
	}
	return "[='" + strings.Join(parts, " ") + "']"
}

// specFromUse builds the spec of a short pass flag, checking its options.
func specFromUse(u passUse) (passes.PassSpec, error) {
	args, err := passes.ParseOptions(u.options, 0)
	if err == nil {
		var spec passes.PassSpec
		spec, err = passes.NewSpec(u.name, args)
		if err == nil {
			return spec, nil
		}
	}
	return passes.PassSpec{}, usageErrorf("invalid --%s=%s: %v", u.name, u.options, err)
}
