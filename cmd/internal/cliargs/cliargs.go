// Package cliargs prepares and checks command lines for
// github.com/urfave/cli/v2 and Go's flag package, so that every command
// reads its flags the same way:
//
//   - options may follow positional arguments (Reorder: urfave/cli's flag
//     parser stops at the first positional argument);
//   - a flag that holds one value may be given once: "-o a -o b" is an
//     error, not "b" (Once, OnceFlagSet);
//   - a numeric flag with a range rejects a value outside it, naming the
//     range (IntIn, Int64In, Float64In, DurationIn, CheckRange).
package cliargs

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// Reorder moves the options of args[head:] in front of its positional
// arguments ("prog m.json --input x" becomes "prog --input x -- m.json"):
// args[:head] (the program and any subcommand name) stay first, an option
// of flags that takes a value takes the next argument as its value unless
// written --name=value, and "--" ends the options. A flag that holds one
// value and is given twice is an error (Once); unknown options are left to
// urfave/cli to report.
func Reorder(args []string, head int, flags []cli.Flag) ([]string, error) {
	if len(args) <= head {
		return args, nil
	}
	byName := Index(flags)
	var once Once
	var opts, pos []string
	rest := args[head:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			pos = append(pos, rest[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		opts = append(opts, a)
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := byName[name]
		if f == nil {
			continue
		}
		if TakesValue(f) && !hasValue && i+1 < len(rest) {
			i++
			value = rest[i]
			opts = append(opts, value)
		}
		if err := once.Add(f, a, value); err != nil {
			return nil, err
		}
	}
	out := append(append([]string(nil), args[:head]...), opts...)
	if len(pos) > 0 {
		out = append(append(out, "--"), pos...)
	}
	return out, nil
}

// Index maps every name (and alias) of flags, and of the help flag, to its
// flag.
func Index(flags []cli.Flag) map[string]cli.Flag {
	m := map[string]cli.Flag{}
	for _, f := range append(flags, cli.HelpFlag) {
		for _, n := range f.Names() {
			m[n] = f
		}
	}
	return m
}

// TakesValue reports whether f takes a value (the next argument when
// written without "=value").
func TakesValue(f cli.Flag) bool {
	df, ok := f.(cli.DocGenerationFlag)
	return ok && df.TakesValue()
}

// Repeatable reports whether f may be given more than once: a slice flag
// (--input a --input b), or a flag that says so (otir-opt's pass flags).
func Repeatable(f cli.Flag) bool {
	sf, ok := f.(cli.DocGenerationSliceFlag)
	return ok && sf.IsSliceFlag()
}

// Once tracks the flags of one command line and rejects a second
// occurrence of a flag that holds one value, under any of its names. The
// zero value is ready to use.
type Once struct {
	first map[cli.Flag]string
}

// Add records flag f, written as arg with the given value ("" for a
// boolean); it fails if f is not Repeatable and was added before.
func (o *Once) Add(f cli.Flag, arg, value string) error {
	if Repeatable(f) {
		return nil
	}
	given := arg
	if value != "" && !strings.Contains(arg, "=") {
		given += " " + value
	}
	if first, ok := o.first[f]; ok {
		return RepeatError{Flag: dashed(f.Names()[0]), First: first, Second: given}
	}
	if o.first == nil {
		o.first = map[cli.Flag]string{}
	}
	o.first[f] = given
	return nil
}

// RepeatError is a flag that holds one value given twice: a usage error.
type RepeatError struct {
	Flag          string // "-o", "--output"
	First, Second string // as written: "-o a", "--output=b"
}

func (e RepeatError) Error() string {
	return fmt.Sprintf("for the %s option: may only occur zero or one times! (given as '%s' and '%s')", e.Flag, e.First, e.Second)
}

// dashed writes a flag name as it is given: -o, --output.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}
