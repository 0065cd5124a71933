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

// OptionKind says how a free-form option value is validated.
type OptionKind uint8

const (
	// StringOption accepts any text.
	StringOption OptionKind = iota
	// IntOption accepts a decimal integer.
	IntOption
	// BoolOption accepts true or false (and a bare `{name}` means true).
	BoolOption
)

// Option describes one `{key=value}` option of a pass.
type Option struct {
	Name    string
	Help    string
	Default string
	// Values lists the accepted values, when the option is an enumeration.
	Values []string
	// Kind validates values of a non-enumeration option.
	Kind OptionKind
	// Check, when set, validates a given value further (a syntax of its
	// own, such as fixed<W,I>): its error says what was expected.
	Check func(value string) error
}

// Info describes a registered pass.
type Info struct {
	Name    string
	Summary string
	// Title is the pass's display name in IR dumps and timing reports, as
	// MLIR's pass names ("CSE"); when empty it is derived from Name
	// ("promote-types" gives "PromoteTypes").
	Title   string
	Options []Option
	// New builds the pass from its options; every registered option has a
	// value (its default when not given).
	New func(opts map[string]string) (Pass, error)
	// Expand, set instead of New, makes the name a registered pipeline (as
	// MLIR's PassPipelineRegistration): it stands for the passes Expand
	// returns from its options, and the pass manager runs, times and prints
	// each of them on its own (Expand).
	Expand func(opts map[string]string) (Pipeline, error)
}

// IsPipeline reports whether the name stands for a pipeline of passes.
func (i *Info) IsPipeline() bool { return i.Expand != nil }

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

// Option returns the named option or nil.
func (i *Info) Option(name string) *Option {
	for k := range i.Options {
		if i.Options[k].Name == name {
			return &i.Options[k]
		}
	}
	return nil
}

var (
	regMu    sync.Mutex
	registry = map[string]*Info{}
)

// Register adds a pass to the registry; it panics on a duplicate or empty name
// (a programming error, caught at start-up).
func Register(info Info) {
	regMu.Lock()
	defer regMu.Unlock()
	if info.Name == "" || (info.New == nil) == (info.Expand == nil) {
		panic("passes: registration needs a name and a constructor or an expansion (one of them)")
	}
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
