package optmain

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/otir-dev/otir/passes"
)

// listPasses prints every registered pass with its summary and options.
func listPasses(w io.Writer) { printPasses(w, passes.All()) }

// printPasses prints passes with their summaries and options, each option
// from its declaration: name, accepted values, help and default.
func printPasses(w io.Writer, all []*passes.Info) {
	fmt.Fprintln(w, "Available passes (use --<pass>[='opt=value ...'] or --pass-pipeline='builtin.module(<pass>{opt=value})'):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, info := range all {
		fmt.Fprintf(tw, "  %s\t%s\n", info.Name, info.Summary)
		for _, o := range info.Options() {
			fmt.Fprintf(tw, "    %s=%s\t%s%s\n", o.Name, o.ValueHint(), o.Help, defaultNote(o))
		}
	}
	tw.Flush()
}
