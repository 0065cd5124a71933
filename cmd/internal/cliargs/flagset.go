package cliargs

import "flag"

// OnceFlagSet makes every flag of fs that holds one value fail when it is
// given a second time, under any of its names: flags registered as aliases
// share one flag.Value (fs.Var(fs.Lookup("v").Value, "verbose", "")). A
// Value with an IsList() bool method that returns true (a list flag) may
// repeat. Call it after the flags are defined and before fs.Parse; the
// function it returns turns an error of fs.Parse into the RepeatError
// behind it (the flag package words it "invalid value ... for flag ...").
func OnceFlagSet(fs *flag.FlagSet) func(error) error {
	var repeat error // the RepeatError of the last Set, if any
	groups := map[flag.Value]*onceValue{}
	fs.VisitAll(func(f *flag.Flag) {
		if l, ok := f.Value.(interface{ IsList() bool }); ok && l.IsList() {
			return
		}
		g := groups[f.Value]
		if g == nil {
			g = &onceValue{Value: f.Value, repeat: &repeat}
			groups[f.Value] = g
		}
		g.names = append(g.names, f.Name)
		f.Value = g
	})
	return func(err error) error {
		if err != nil && repeat != nil {
			return repeat
		}
		return err
	}
}

// onceValue is a flag.Value that may be set once.
type onceValue struct {
	flag.Value
	names  []string
	first  string // the first value set
	set    bool
	repeat *error // where a second Set leaves its error
}

func (o *onceValue) Set(s string) error {
	if o.set {
		*o.repeat = RepeatError{Flag: flagName(o.names), First: o.first, Second: s}
		return *o.repeat
	}
	o.set, o.first = true, s
	return o.Value.Set(s)
}

// IsBoolFlag keeps a boolean flag boolean (given without a value).
func (o *onceValue) IsBoolFlag() bool {
	b, ok := o.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
