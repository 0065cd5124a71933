package passes

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Options is implemented by a pointer to a pass's options struct: Declare
// declares each option on d, bound to a field, with its name, default,
// accepted values and help. The pass manager calls Declare on a new struct
// for every use of the pass in a pipeline, then sets the fields from the
// pipeline's text, each value checked against its declaration; the pass's
// constructor receives the struct. otir-opt's --help and --list-passes
// (and the listing of docs/otir-opt.md) are printed from the declarations.
type Options interface{ Declare(d *Decl) }

// NoOptions is the options struct of a pass that takes none.
type NoOptions struct{}

// Declare declares nothing.
func (*NoOptions) Declare(*Decl) {}

// OptionKind is the kind of value an option takes.
type OptionKind uint8

const (
	// StringOption accepts any text, or what its own parser accepts (Var).
	StringOption OptionKind = iota
	// IntOption accepts a decimal integer, within the declared range or
	// one of the declared special values.
	IntOption
	// BoolOption accepts true or false (and a bare `{name}` means true).
	BoolOption
	// EnumOption accepts one of the declared values.
	EnumOption
)

// Option is one `{key=value}` option of a pass, as declared: bound to the
// field (or, in a pipeline, the fields of its steps) it sets.
type Option struct {
	Name string
	Help string
	Kind OptionKind
	// Values lists the accepted values of an EnumOption.
	Values []string
	// ReadsFile marks an option that names a file the pass reads (a
	// driver refuses to overwrite it with its output).
	ReadsFile bool
	// Default is the value's text before the pipeline sets it.
	Default string

	min, max       int64
	hasMin, hasMax bool
	// special are the integers an IntOption accepts outside its range,
	// each with the word that writes it ("auto", "0").
	special []specialInt
	// steps are the pipeline steps that declare the option (Decl.Step),
	// named before its help.
	steps []string
	// set parses a value into each bound field; the error of the first
	// says what was expected. get is the first field's value as text.
	set []func(string) error
	get func() string
}

type specialInt struct {
	word  string
	value int64
}

// Range bounds the values of an IntOption to [lo, hi]: the pass manager
// refuses others ("expected an integer from lo to hi").
func (o *Option) Range(lo, hi int) *Option {
	o.min, o.max, o.hasMin, o.hasMax = int64(lo), int64(hi), true, true
	return o
}

// Min bounds the values of an IntOption from below.
func (o *Option) Min(lo int) *Option {
	o.min, o.hasMin = int64(lo), true
	return o
}

// Or accepts value outside the range of an IntOption, written as word
// (a number, "0", or a name, "auto"); a field holding value prints as word.
func (o *Option) Or(word string, value int) *Option {
	o.special = append(o.special, specialInt{word, int64(value)})
	return o
}

// Value is the option's value as text, as --dump-pass-pipeline prints it.
func (o *Option) Value() string { return o.get() }

// ValueHint describes an option's accepted values, for help texts:
// "hls|cpp", "<int>", "<int>|auto".
func (o *Option) ValueHint() string {
	switch o.Kind {
	case EnumOption:
		return strings.Join(o.Values, "|")
	case IntOption:
		hint := "<int>"
		for _, s := range o.special {
			if _, err := strconv.Atoi(s.word); err != nil {
				hint += "|" + s.word
			}
		}
		return hint
	case BoolOption:
		return "true|false"
	}
	return "<string>"
}

// Bounds says which integers an IntOption with a declared range or special
// values accepts ("0, auto or an integer from 2 to 53"), for help texts; ""
// for any other option.
func (o *Option) Bounds() string {
	if o.Kind != IntOption || !o.hasMin && !o.hasMax && len(o.special) == 0 {
		return ""
	}
	return o.expected()
}

// expected says what an IntOption accepts: "an integer from 3 to 16",
// "0, auto or an integer from 2 to 53".
func (o *Option) expected() string {
	s := "an integer"
	switch {
	case o.hasMin && o.hasMax:
		s += fmt.Sprintf(" from %d to %d", o.min, o.max)
	case o.hasMin:
		s += fmt.Sprintf(" of at least %d", o.min)
	}
	if len(o.special) == 0 {
		return s
	}
	words := make([]string, len(o.special))
	for i, sp := range o.special {
		words[i] = sp.word
	}
	return strings.Join(words, ", ") + " or " + s
}

// setText sets the bound fields from text; the error says what was
// expected.
func (o *Option) setText(text string) error {
	for _, set := range o.set {
		if err := set(text); err != nil {
			return err
		}
	}
	return nil
}

// Decl collects the options an options struct declares (Options.Declare).
type Decl struct {
	opts []*Option
	step string
}

// Int declares an IntOption bound to p, default def.
func (d *Decl) Int(p *int, name string, def int, help string) *Option {
	*p = def
	o := &Option{Name: name, Help: help, Kind: IntOption}
	o.get = func() string {
		for _, s := range o.special {
			if int64(*p) == s.value {
				return s.word
			}
		}
		return strconv.Itoa(*p)
	}
	o.set = []func(string) error{func(text string) error {
		for _, s := range o.special {
			if text == s.word {
				*p = int(s.value)
				return nil
			}
		}
		v, err := strconv.Atoi(text)
		if err != nil || o.hasMin && int64(v) < o.min || o.hasMax && int64(v) > o.max {
			return fmt.Errorf("expected %s", o.expected())
		}
		*p = v
		return nil
	}}
	return d.add(o)
}

// Bool declares a BoolOption bound to p, default def.
func (d *Decl) Bool(p *bool, name string, def bool, help string) *Option {
	*p = def
	o := &Option{Name: name, Help: help, Kind: BoolOption, get: func() string { return strconv.FormatBool(*p) }}
	o.set = []func(string) error{func(text string) error {
		if text != "true" && text != "false" {
			return fmt.Errorf("expected true or false")
		}
		*p = text == "true"
		return nil
	}}
	return d.add(o)
}

// String declares a StringOption bound to p, default def.
func (d *Decl) String(p *string, name, def, help string) *Option {
	*p = def
	o := &Option{Name: name, Help: help, Kind: StringOption, get: func() string { return *p }}
	o.set = []func(string) error{func(text string) error { *p = text; return nil }}
	return d.add(o)
}

// File declares a StringOption naming a file the pass reads (ReadsFile);
// empty by default.
func (d *Decl) File(p *string, name, help string) *Option {
	o := d.String(p, name, "", help)
	o.ReadsFile = true
	return o
}

// List declares a StringOption of comma-separated items bound to p, empty
// by default.
func (d *Decl) List(p *[]string, name, help string) *Option {
	return Var(d, p, name, nil, help,
		func(text string) ([]string, error) {
			if text == "" {
				return nil, nil
			}
			return strings.Split(text, ","), nil
		},
		func(v []string) string { return strings.Join(v, ",") })
}

// Enum declares an EnumOption bound to p: one of values, default def (which
// may be a value outside the list, such as "" for "not given").
func (d *Decl) Enum(p *string, name, def string, values []string, help string) *Option {
	return EnumVar(d, p, name, def, values, values, help)
}

// EnumVar declares an EnumOption bound to a field of any comparable type:
// the text words[i] sets values[i]. The default def prints as its word (""
// when it has none), and that text is accepted too, so that a printed
// pipeline reads back.
func EnumVar[T comparable](d *Decl, p *T, name string, def T, words []string, values []T, help string) *Option {
	*p = def
	o := &Option{Name: name, Help: help, Kind: EnumOption, Values: words}
	o.get = func() string {
		if i := slices.Index(values, *p); i >= 0 {
			return words[i]
		}
		return ""
	}
	defText := o.get()
	o.set = []func(string) error{func(text string) error {
		switch i := slices.Index(words, text); {
		case i >= 0:
			*p = values[i]
		case text == defText:
			*p = def
		default:
			return fmt.Errorf("expected one of: %s", strings.Join(words, ", "))
		}
		return nil
	}}
	return d.add(o)
}

// Var declares an option of a type of its own bound to p, default def:
// parse reads a value (its error says what was expected: "expected
// fixed<W,I>"), format writes one back.
func Var[T any](d *Decl, p *T, name string, def T, help string, parse func(string) (T, error), format func(T) string) *Option {
	*p = def
	o := &Option{Name: name, Help: help, Kind: StringOption, get: func() string { return format(*p) }}
	o.set = []func(string) error{func(text string) error {
		v, err := parse(text)
		if err != nil {
			return err
		}
		*p = v
		return nil
	}}
	return d.add(o)
}

// Step declares the options of one step of a registered pipeline, the
// options struct the pipeline's embeds, as options of the pipeline, their
// help led by the step's name. An option that two steps declare (or that
// the pipeline declares itself first) is one option setting both fields.
func (d *Decl) Step(name string, o Options) {
	outer := d.step
	d.step = name
	o.Declare(d)
	d.step = outer
}

// add appends o, or binds o's field to the option of the same name already
// declared.
func (d *Decl) add(o *Option) *Option {
	if d.step != "" {
		o.steps = []string{d.step}
	}
	for _, prev := range d.opts {
		if prev.Name != o.Name {
			continue
		}
		if d.step == "" || prev.Kind != o.Kind {
			panic("passes: option '" + o.Name + "' is declared twice")
		}
		prev.set = append(prev.set, o.set...)
		if len(prev.steps) > 0 {
			prev.steps = append(prev.steps, d.step)
		}
		return o
	}
	d.opts = append(d.opts, o)
	return o
}

// OptionValues is an options struct with its declared options bound to its
// fields: the options of one pass of a pipeline.
type OptionValues struct {
	ptr  any
	opts []*Option
}

// declare declares opts's options, with their defaults.
func declare(opts Options) *OptionValues {
	d := &Decl{}
	opts.Declare(d)
	for _, o := range d.opts {
		o.Default = o.get()
		if len(o.steps) > 0 {
			o.Help = strings.Join(o.steps, ", ") + ": " + o.Help
		}
	}
	return &OptionValues{ptr: opts, opts: d.opts}
}

// List is the options in declaration order.
func (v *OptionValues) List() []*Option {
	if v == nil {
		return nil
	}
	return v.opts
}

// Lookup returns the named option or nil.
func (v *OptionValues) Lookup(name string) *Option {
	for _, o := range v.List() {
		if o.Name == name {
			return o
		}
	}
	return nil
}

// Struct is the options struct (a pointer to it).
func (v *OptionValues) Struct() any {
	if v == nil {
		return nil
	}
	return v.ptr
}
