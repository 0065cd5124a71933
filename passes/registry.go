// Package passes holds the pass registry and the pass manager: passes register
// themselves by name with a summary and options, and a pipeline such as
// `builtin.module(promote-types{style=hls},lower-tiles)` runs them in order,
// verifying the IR after each one.
//
// The pass manager is deliberately flat, like the pass table of Go's
// cmd/compile/internal/ssa: every pass runs on the whole module, in the order
// given, and instrumentation (IR printing, timing) hooks around each pass and
// each verifier run.
package passes

import (
	"sort"
	"strings"
	"sync"

	"github.com/otir-dev/otir/ir"
)

// Pass transforms a module in place. Run returns nil, or an error that is a
// *diag.Diagnostic or diag.List (located at the offending operation) or any
// other error.
type Pass interface {
	Run(m *ir.Module) error
}

// PassFunc adapts a function to Pass.
type PassFunc func(m *ir.Module) error

// Run calls f.
func (f PassFunc) Run(m *ir.Module) error { return f(m) }

// Info describes a registered pass. Register and RegisterPipeline fill in
// how its options are declared and how it is built.
type Info struct {
	Name    string
	Summary string
	// Title is the pass's display name in IR dumps and timing reports, as
	// MLIR's pass names ("CSE"); when empty it is derived from Name
	// ("promote-types" gives "PromoteTypes").
	Title string

	// newOptions makes a new options struct, its options declared and set
	// to their defaults; adopt does the same for a copy of a given struct
	// (false when it is not the pass's type).
	newOptions func() *OptionValues
	adopt      func(opts any) (*OptionValues, bool)
	// build makes the pass from its options; expand, set instead, makes
	// the name a registered pipeline (as MLIR's PassPipelineRegistration):
	// it stands for the passes it returns, and the pass manager runs,
	// times and prints each of them on its own (Expand).
	build  func(opts any, ctx *Context) (Pass, error)
	expand func(opts any) (Pipeline, error)
}

// OptionsPtr is a pointer to an options struct O: the constraint of the
// generic registrations, which a helper that registers passes reuses.
type OptionsPtr[O any] interface {
	*O
	Options
}

// Register adds a pass to the registry: newPass builds it from its options
// struct O, whose Declare declares the options, and the run's context. It
// panics on a duplicate or empty name (a programming error, caught at
// start-up).
func Register[O any, P OptionsPtr[O]](info Info, newPass func(opts *O, ctx *Context) (Pass, error)) {
	bindOptions[O, P](&info)
	info.build = func(opts any, ctx *Context) (Pass, error) { return newPass(opts.(*O), ctx) }
	register(info)
}

// RegisterPipeline adds a registered pipeline: the name stands for the
// passes expand returns from its options struct O. A pipeline's options
// struct embeds its steps' (Decl.Step) and expand makes their specs
// (SpecOf).
func RegisterPipeline[O any, P OptionsPtr[O]](info Info, expand func(opts *O) (Pipeline, error)) {
	bindOptions[O, P](&info)
	info.expand = func(opts any) (Pipeline, error) { return expand(opts.(*O)) }
	register(info)
}

func bindOptions[O any, P OptionsPtr[O]](info *Info) {
	info.newOptions = func() *OptionValues { return declare(P(new(O))) }
	info.adopt = func(opts any) (*OptionValues, bool) {
		given, ok := opts.(*O)
		if !ok {
			return nil, false
		}
		o := new(O)
		v := declare(P(o))
		*o = *given
		return v, true
	}
}

// IsPipeline reports whether the name stands for a pipeline of passes.
func (i *Info) IsPipeline() bool { return i.expand != nil }

// Options lists the pass's options, as declared, with their defaults.
func (i *Info) Options() []*Option { return i.newOptions().List() }

// DisplayName is the pass's title, or one derived from its name.
func (i *Info) DisplayName() string {
	if i.Title != "" {
		return i.Title
	}
	var sb strings.Builder
	for _, part := range strings.FieldsFunc(i.Name, func(r rune) bool { return r == '-' || r == '_' || r == '.' }) {
		sb.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return sb.String()
}

var (
	regMu    sync.Mutex
	registry = map[string]*Info{}
)

func register(info Info) {
	regMu.Lock()
	defer regMu.Unlock()
	if info.Name == "" {
		panic("passes: registration needs a name")
	}
	info.newOptions() // a bad declaration panics at start-up
	if _, dup := registry[info.Name]; dup {
		panic("passes: duplicate registration of " + info.Name)
	}
	registry[info.Name] = &info
}

// Lookup finds a registered pass by name.
func Lookup(name string) *Info {
	regMu.Lock()
	defer regMu.Unlock()
	return registry[name]
}

// All lists the registered passes sorted by name.
func All() []*Info {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]*Info, 0, len(registry))
	for _, i := range registry {
		out = append(out, i)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out
}

// Names lists the registered pass names, sorted.
func Names() []string {
	var ns []string
	for _, i := range All() {
		ns = append(ns, i.Name)
	}
	return ns
}
