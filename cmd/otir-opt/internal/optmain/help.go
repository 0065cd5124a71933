package optmain

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/passes"
)

// helpText renders --help in mlir-opt's spirit: the general flags by
// category, then one line per registered pass with its options.
func helpText(flags []cli.Flag) string {
	var sb strings.Builder
	sb.WriteString(`OVERVIEW: otir-opt: parse, verify, transform and print OTIR

USAGE: otir-opt [options] [input file]

Reads an OTIR file (standard input when the file is '-' or missing; locations
then say <stdin>), verifies it, runs a pass pipeline and prints the resulting
module to stdout. Diagnostics go to stderr as file:line:col: error: message.
Exit status: 0 on success, 1 on any error diagnostic or usage error (as mlir-opt),
3 on an internal error (a bug: please report it).
Flags may come before or after the input file.
`)
	tw := tabwriter.NewWriter(&sb, 0, 0, 2, ' ', 0)
	for _, cat := range []string{catIO, catPipeline, catDebug} {
		fmt.Fprintf(tw, "\n%s:\n", cat)
		for _, f := range flags {
			cf, ok := f.(cli.CategorizableFlag)
			if !ok || cf.GetCategory() != cat {
				continue
			}
			fmt.Fprintf(tw, "  %s\t%s\n", flagSynopsis(f), flagUsage(f))
		}
	}
	fmt.Fprintf(tw, "  %s\t%s\n", "-h, --help", "print this help")
	fmt.Fprintf(tw, "\nPasses (one flag per pass, run in command-line order; set options with --<pass>='opt=value ...'):\n")
	for _, f := range flags {
		pf, ok := f.(*passFlag)
		if !ok {
			continue
		}
		fmt.Fprintf(tw, "  --%s\t%s\n", pf.info.Name, pf.info.Summary)
		for _, o := range pf.info.Options() {
			fmt.Fprintf(tw, "      %s=%s\t%s%s\n", o.Name, o.ValueHint(), o.Help, defaultNote(o))
		}
	}
	tw.Flush()
	return sb.String()
}

// defaultNote is " (default: V; BOUNDS)" from the option's declaration,
// either part left out when empty.
func defaultNote(o *passes.Option) string {
	var parts []string
	if o.Default != "" {
		parts = append(parts, "default: "+o.Default)
	}
	if b := o.Bounds(); b != "" {
		parts = append(parts, b)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// flagSynopsis is "-o FILE", "--pass-pipeline=PIPELINE" or "--timing".
func flagSynopsis(f cli.Flag) string {
	name := f.Names()[0]
	dashes := "--"
	if len(name) == 1 {
		dashes = "-"
	}
	if !takesValue(f) {
		return dashes + name
	}
	placeholder, _ := unquoteUsage(f.(cli.DocGenerationFlag).GetUsage())
	if optionalValue[name] {
		return dashes + name + "[=" + placeholder + "]"
	}
	if len(name) == 1 {
		return dashes + name + " " + placeholder
	}
	return dashes + name + "=" + placeholder
}

// flagUsage is the flag's usage text, its aliases and its default.
func flagUsage(f cli.Flag) string {
	_, usage := unquoteUsage(f.(cli.DocGenerationFlag).GetUsage())
	if names := append([]string(nil), f.Names()[1:]...); len(names) > 0 {
		for i, n := range names {
			if len(n) == 1 {
				names[i] = "-" + n
			} else {
				names[i] = "--" + n
			}
		}
		usage += " (alias " + strings.Join(names, ", ") + ")"
	}
	if bf, ok := f.(*cli.BoolFlag); ok && bf.Value {
		usage += " (default: true)"
	}
	return usage
}

// unquoteUsage splits "write the output to `FILE`" into the placeholder FILE
// and the text without backquotes, as urfave/cli does for its own help.
func unquoteUsage(usage string) (placeholder, text string) {
	start := strings.IndexByte(usage, '`')
	if start < 0 {
		return "VALUE", usage
	}
	end := strings.IndexByte(usage[start+1:], '`')
	if end < 0 {
		return "VALUE", usage
	}
	name := usage[start+1 : start+1+end]
	return name, usage[:start] + name + usage[start+end+2:]
}
