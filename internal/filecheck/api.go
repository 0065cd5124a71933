package filecheck

import (
	"errors"
	"fmt"
	"io"
)

// Source is a named text: a check file or an input.
type Source struct {
	Name string // as shown in diagnostics, e.g. "check.otir" or "<stdin>"
	Text string

	display string // name for "Input file:"/"Check file:" lines, if not Name
}

func (s Source) shownName() string {
	if s.display != "" {
		return s.display
	}
	return s.Name
}

// Check checks input against the directives of check like the filecheck
// command does, writing diagnostics (and the input dump selected by
// opts.DumpInput) to stderr. It returns the exit status: 0 when the input
// matches, 1 when it does not, 2 when the check file or options are
// invalid or the input is empty without AllowEmptyInput.
func Check(opts Options, check, input Source, stderr io.Writer) int {
	o := opts
	switch o.DumpInput {
	case "always":
		o.dumpMode = dumpAlways
	case "never":
		o.dumpMode = dumpNever
	default:
		o.dumpMode = dumpFail
	}
	switch o.DumpFilter {
	case "all":
		o.dumpFilter = filterAll
	case "annotation-full":
		o.dumpFilter = filterAnnotationFull
	case "annotation":
		o.dumpFilter = filterAnnotation
	case "error":
		o.dumpFilter = filterError
	default:
		if o.dumpMode == dumpAlways {
			o.dumpFilter = filterAll
		}
	}
	return run(&o, check, func() (Source, error) { return input, nil }, stderr, nil)
}

// run is the common body of Main and Check. args, if any, are echoed when
// the input is empty.
func run(o *Options, check Source, loadInput func() (Source, error), stderr io.Writer, args []string) int {
	if o.VerboseVerbose {
		o.Verbose = true
	}
	if !o.validatePrefixes(stderr) {
		return 2
	}
	sm := &srcMgr{out: stderr, color: o.Color}
	fc := &checker{req: *o, ctx: newPatternContext(), sm: sm}
	checkBuf := &srcBuf{name: check.Name, text: canonicalize(check.Text, o.StrictWhitespace)}
	if err := fc.readCheckFile(checkBuf); err != nil {
		var pe parseError
		if errors.As(err, &pe) {
			return pe.exitCode
		}
		return 2
	}
	input, err := loadInput()
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if len(input.Text) == 0 && !o.AllowEmptyInput {
		fmt.Fprintf(stderr, "FileCheck error: '%s' is empty.\n", input.shownName())
		if args != nil {
			fmt.Fprintf(stderr, "FileCheck command line: ")
			for _, a := range args {
				fmt.Fprintf(stderr, " %s", a)
			}
			fmt.Fprintln(stderr)
		}
		return 2
	}
	inputBuf := &srcBuf{name: input.Name, text: canonicalize(input.Text, o.StrictWhitespace)}
	var diags *diagList
	if o.dumpMode != dumpNever {
		diags = &diagList{}
	}
	exit := 1
	if fc.checkInput(wholeBuf(inputBuf), diags) {
		exit = 0
	}
	if o.dumpMode == dumpAlways || (exit == 1 && o.dumpMode == dumpFail) {
		fmt.Fprintf(stderr, "\nInput file: %s\nCheck file: %s\n\n-dump-input=help explains the following input dump.\n\n", input.shownName(), check.shownName())
		anns, width := fc.buildInputAnnotations(diags.d)
		width = max(width, o.DumpLabelWidth)
		fc.dumpAnnotatedInput(stderr, o.dumpFilter, o.DumpContext, inputBuf.text, anns, width, o.Color)
	}
	return exit
}
