package optmain

import (
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/passes"
)

// normalizeArgs checks every flag of the command line against the known ones
// (an unknown flag is a usage error with a "did you mean" suggestion) and
// moves the flags before the positional arguments, keeping their order, so
// that `otir-opt file.otir --cse` works as with mlir-opt: Go's flag package
// would stop at the file name. A flag that holds one value may be given
// once (cliargs.Once); pass flags may repeat.
func normalizeArgs(args []string, flags []cli.Flag) ([]string, error) {
	if len(args) == 0 {
		args = []string{"otir-opt"}
	}
	known := map[string]cli.Flag{}
	var names []string
	for _, f := range append(flags, cli.HelpFlag) {
		for _, n := range f.Names() {
			known[n] = f
			names = append(names, n)
		}
	}
	out := []string{args[0]}
	var positional []string
	var once cliargs.Once
	help := false
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a == "--" {
			positional = append(positional, rest[i+1:]...)
			break
		}
		if a == "-" || !strings.HasPrefix(a, "-") {
			positional = append(positional, a)
			continue
		}
		written := a // a flag that holds one value may be given once
		dashes := "-"
		if strings.HasPrefix(a, "--") {
			dashes = "--"
		}
		name, _, hasValue := strings.Cut(a[len(dashes):], "=")
		f, ok := known[name]
		if !ok || strings.HasPrefix(name, "-") {
			if s := passes.Suggest(name, names); s != "" {
				return nil, usageErrorf("unknown flag %s%s, did you mean %s%s?", dashes, name, dashes, s)
			}
			return nil, usageErrorf("unknown flag %s%s (see otir-opt --help)", dashes, name)
		}
		if f == cli.HelpFlag {
			help = true
		}
		if optionalValue[name] && !hasValue {
			// --split-input-file alone: the flag's implicit value.
			a += "="
		}
		out = append(out, a)
		value := ""
		if takesValue(f) && !hasValue && !optionalValue[name] {
			if i+1 == len(rest) {
				return nil, usageErrorf("flag %s%s needs a value", dashes, name)
			}
			i++
			value = rest[i]
			out = append(out, value)
		}
		if err := once.Add(f, written, value); err != nil {
			return nil, usageErrorf("%v", err)
		}
	}
	if help {
		// `otir-opt FILE --help` prints the help, as mlir-opt: urfave
		// would take FILE for a help topic.
		positional = nil
	}
	return append(append(out, "--"), positional...), nil
}

// optionalValue are the flags whose value is optional, as mlir-opt's
// cl::ValueOptional: given only with `=` (`--split-input-file=MARKER`), and
// written alone they take the empty value, which means the default.
var optionalValue = map[string]bool{"split-input-file": true, "verify-diagnostics": true}

// takesValue reports whether a flag consumes the next argument when written
// without `=value`.
func takesValue(f cli.Flag) bool {
	if _, ok := f.(*passFlag); ok {
		return false
	}
	df, ok := f.(cli.DocGenerationFlag)
	return ok && df.TakesValue()
}
