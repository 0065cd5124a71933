package lit

import (
	"fmt"
	"io"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"

	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/readlimit"
)

// LineDiff renders a line-oriented diff of want and got: unchanged lines
// start with "  ", missing lines with "- " and unexpected lines with "+ ".
// Long runs of unchanged lines are elided to three lines of context.
func LineDiff(want, got string) string {
	dmp := diffmatchpatch.New()
	a, b, lines := dmp.DiffLinesToChars(want, got)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), lines)
	var out strings.Builder
	const context = 3
	for i, d := range diffs {
		text := strings.TrimSuffix(d.Text, "\n")
		ls := strings.Split(text, "\n")
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			for _, l := range ls {
				out.WriteString("- " + l + "\n")
			}
		case diffmatchpatch.DiffInsert:
			for _, l := range ls {
				out.WriteString("+ " + l + "\n")
			}
		default:
			first, last := i == 0, i == len(diffs)-1
			if len(ls) > 2*context+1 || (first || last) && len(ls) > context {
				var head, tail []string
				if !first {
					head = ls[:context]
				}
				if !last {
					tail = ls[len(ls)-context:]
				}
				for _, l := range head {
					out.WriteString("  " + l + "\n")
				}
				fmt.Fprintf(&out, "  ... (%d unchanged lines)\n", len(ls)-len(head)-len(tail))
				for _, l := range tail {
					out.WriteString("  " + l + "\n")
				}
				continue
			}
			for _, l := range ls {
				out.WriteString("  " + l + "\n")
			}
		}
	}
	return out.String()
}

// goldenDiffUsage is golden-diff --help.
const goldenDiffUsage = `usage: golden-diff EXPECTED [ACTUAL|-]

Compares the golden file EXPECTED with ACTUAL (default: standard input) and
prints a line diff when they differ. With UPDATE_GOLDEN=1 in the environment
it rewrites EXPECTED with ACTUAL instead.

Exit status: 0 equal (or updated), 1 different, 2 bad usage or a file that
cannot be read or written, 3 an internal error (a bug: please report it).
`

// GoldenDiffMain implements the golden-diff command: it compares the file
// args[0] with args[1] (or stdin) and prints LineDiff when they differ.
func GoldenDiffMain(args []string, stdin io.Reader, stdout, stderr io.Writer, update bool) int {
	if len(args) == 1 && (args[0] == "--help" || args[0] == "-help" || args[0] == "-h") {
		fmt.Fprint(stdout, goldenDiffUsage)
		return 0
	}
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' {
			fmt.Fprintf(stderr, "golden-diff: unknown option %s (see --help)\n", a)
			return 2
		}
	}
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprintln(stderr, "usage: golden-diff EXPECTED [ACTUAL|-] (see --help)")
		return 2
	}
	var got []byte
	var err error
	if len(args) == 1 || args[1] == "-" {
		got, err = readlimit.All(stdin, readlimit.Default, "")
	} else {
		got, err = readlimit.File(args[1], readlimit.Default, "")
	}
	if err != nil {
		fmt.Fprintf(stderr, "golden-diff: %v\n", err)
		return 2
	}
	if update {
		if err := outfile.WriteFile(args[0], got); err != nil {
			fmt.Fprintf(stderr, "golden-diff: %v\n", err)
			return 2
		}
		return 0
	}
	want, err := readlimit.File(args[0], readlimit.Default, "")
	if err != nil {
		fmt.Fprintf(stderr, "golden-diff: %v\n", err)
		return 2
	}
	if string(want) == string(got) {
		return 0
	}
	fmt.Fprintf(stdout, "golden-diff: output differs from %s (- expected, + actual):\n", args[0])
	io.WriteString(stdout, LineDiff(string(want), string(got)))
	if len(want) > 0 && len(got) > 0 && (want[len(want)-1] == '\n') != (got[len(got)-1] == '\n') {
		fmt.Fprintln(stdout, "golden-diff: the texts differ in their final newline")
	}
	return 1
}
