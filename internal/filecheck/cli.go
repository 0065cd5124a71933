package filecheck

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/otir-dev/otir/internal/readlimit"
)

// Env is what Main needs from the process: arguments, streams and the
// environment. It keeps Main testable without a subprocess.
type Env struct {
	Args      []string // including the program name
	Stdin     io.Reader
	Stdout    io.Writer
	Stderr    io.Writer
	Getenv    func(string) string
	StderrTTY bool // whether colors are on by default
}

// cliOptions is the parsed command line.
type cliOptions struct {
	Options
	checkFile    string
	inputFile    string
	dumpInputs   []dumpMode
	dumpFilters  []dumpFilter
	dumpContexts []int
	labelWidth   int
	maxInput     int64 // --max-input-bytes: the most bytes read from each file
	color        bool
	help         bool
}

type optSpec struct {
	names []string
	kind  int // optBool, optValue, optPrefix
	set   func(o *cliOptions, v string) error
}

const (
	optBool = iota
	optValue
	optPrefix // value always attached, like -DVAR=x
)

func commaList(dst *[]string) func(*cliOptions, string) error {
	return func(_ *cliOptions, v string) error {
		*dst = append(*dst, strings.Split(v, ",")...)
		return nil
	}
}

func boolFlag(get func(o *cliOptions) *bool) func(*cliOptions, string) error {
	return func(o *cliOptions, v string) error {
		switch v {
		case "", "true", "TRUE", "True", "1":
			*get(o) = true
		case "false", "FALSE", "False", "0":
			*get(o) = false
		default:
			return fmt.Errorf("'%s' is invalid value for boolean argument! Try 0 or 1", v)
		}
		return nil
	}
}

func uintValue(v string) (int, error) {
	n, err := strconv.ParseUint(v, 0, 32)
	if err != nil {
		return 0, fmt.Errorf("'%s' value invalid for uint argument!", v)
	}
	return int(n), nil
}

func optionSpecs() []optSpec {
	return []optSpec{
		{[]string{"check-prefixes", "check-prefix"}, optValue, func(o *cliOptions, v string) error {
			return commaList(&o.CheckPrefixes)(o, v)
		}},
		{[]string{"comment-prefixes"}, optValue, func(o *cliOptions, v string) error {
			return commaList(&o.CommentPrefixes)(o, v)
		}},
		{[]string{"input-file"}, optValue, func(o *cliOptions, v string) error { o.inputFile = v; return nil }},
		{[]string{"implicit-check-not"}, optValue, func(o *cliOptions, v string) error {
			o.ImplicitCheckNot = append(o.ImplicitCheckNot, v)
			return nil
		}},
		{[]string{"D"}, optPrefix, func(o *cliOptions, v string) error {
			o.GlobalDefines = append(o.GlobalDefines, v)
			return nil
		}},
		{[]string{"strict-whitespace"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.StrictWhitespace })},
		{[]string{"ignore-case"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.IgnoreCase })},
		{[]string{"allow-empty"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.AllowEmptyInput })},
		{[]string{"allow-unused-prefixes"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.AllowUnusedPrefixes })},
		{[]string{"match-full-lines"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.MatchFullLines })},
		{[]string{"enable-var-scope"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.EnableVarScope })},
		{[]string{"allow-deprecated-dag-overlap"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.AllowDeprecatedDagOverlap })},
		{[]string{"v"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.Verbose })},
		{[]string{"vv"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.VerboseVerbose })},
		{[]string{"color"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.color })},
		{[]string{"help", "h"}, optBool, boolFlag(func(o *cliOptions) *bool { return &o.help })},
		{[]string{"dump-input"}, optValue, func(o *cliOptions, v string) error {
			m, ok := map[string]dumpMode{"help": dumpHelp, "always": dumpAlways, "fail": dumpFail, "never": dumpNever}[v]
			if !ok {
				return fmt.Errorf("Cannot find option named '%s'!", v)
			}
			o.dumpInputs = append(o.dumpInputs, m)
			return nil
		}},
		{[]string{"dump-input-filter"}, optValue, func(o *cliOptions, v string) error {
			f, ok := map[string]dumpFilter{"all": filterAll, "annotation-full": filterAnnotationFull, "annotation": filterAnnotation, "error": filterError}[v]
			if !ok {
				return fmt.Errorf("Cannot find option named '%s'!", v)
			}
			o.dumpFilters = append(o.dumpFilters, f)
			return nil
		}},
		{[]string{"dump-input-context"}, optValue, func(o *cliOptions, v string) error {
			n, err := uintValue(v)
			o.dumpContexts = append(o.dumpContexts, n)
			return err
		}},
		{[]string{"max-input-bytes"}, optValue, func(o *cliOptions, v string) error {
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil || n < 1 {
				return fmt.Errorf("'%s' value invalid for --max-input-bytes (a positive number of bytes)", v)
			}
			o.maxInput = n
			return nil
		}},
		{[]string{"dump-input-label-width"}, optValue, func(o *cliOptions, v string) error {
			n, err := uintValue(v)
			o.DumpLabelWidth = n
			return err
		}},
	}
}

// usageError is a command-line error; its message is already formatted.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// argName renders an option name as LLVM's cl does ("-D", "--input-file").
func argName(n string) string {
	if len(n) <= 1 {
		return "-" + n
	}
	return "--" + n
}

// parseArgs parses arguments in the style of llvm::cl: "-opt", "--opt",
// "-opt=value", "-opt value", "-DVAR=value"; "-" and "--"-separated words
// are positional.
func parseArgs(prog string, args []string) (*cliOptions, error) {
	o := &cliOptions{inputFile: "-", maxInput: readlimit.Default}
	specs := optionSpecs()
	find := func(name string) *optSpec {
		for i := range specs {
			for _, n := range specs[i].names {
				if n == name {
					return &specs[i]
				}
			}
		}
		return nil
	}
	// The options that hold one value may be given once (the others are
	// lists, or booleans that FILECHECK_OPTS may repeat).
	once := map[string]bool{"input-file": true, "dump-input-label-width": true}
	given := map[string]string{}
	var positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			positional = append(positional, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			positional = append(positional, a)
			continue
		}
		body := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, value, hasValue := strings.Cut(body, "=")
		spec := find(name)
		if strings.HasPrefix(body, "D") {
			// -D always takes the rest of the word as its value.
			spec, name, value = find("D"), "D", body[1:]
		}
		if spec == nil {
			return nil, usageError{fmt.Sprintf("%s: Unknown command line argument '%s'.  Try: '%s --help'", prog, a, prog)}
		}
		switch spec.kind {
		case optValue:
			if !hasValue {
				if i+1 >= len(args) {
					return nil, usageError{fmt.Sprintf("%s: for the %s option: requires a value!", prog, argName(name))}
				}
				i++
				value = args[i]
			}
		case optPrefix:
			if value == "" {
				return nil, usageError{fmt.Sprintf("%s: for the %s option: requires a value!", prog, argName(name))}
			}
		}
		if once[spec.names[0]] {
			if first, ok := given[spec.names[0]]; ok {
				return nil, usageError{fmt.Sprintf("%s: for the %s option: may only occur zero or one times! (given as '%s' and '%s')", prog, argName(name), first, value)}
			}
			given[spec.names[0]] = value
		}
		if err := spec.set(o, value); err != nil {
			return nil, usageError{fmt.Sprintf("%s: for the %s option: %s", prog, argName(name), err)}
		}
	}
	if len(positional) > 1 {
		return nil, usageError{fmt.Sprintf("%s: Too many positional arguments specified!\nCan specify at most 1 positional arguments: See: %s --help", prog, prog)}
	}
	if len(positional) == 1 {
		o.checkFile = positional[0]
	}
	return o, nil
}

// tokenizeGNU splits an environment value into words like a POSIX shell
// would for simple quoting (llvm::cl::TokenizeGNUCommandLine).
func tokenizeGNU(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			inWord = true
		case c == '\'' || c == '"':
			inWord = true
			for i++; i < len(s) && s[i] != c; i++ {
				if c == '"' && s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

const usageText = `OVERVIEW: filecheck: a FileCheck-compatible pattern checker

USAGE: filecheck [options] <check-file>

Reads the input from --input-file (default: stdin) and checks it against
the CHECK directives of <check-file>. Exit status: 0 match, 1 mismatch,
2 usage or check-file error, 3 an internal error (a bug: please report
it). Options are also read from FILECHECK_OPTS.

OPTIONS:
  --allow-deprecated-dag-overlap  Allow overlapping CHECK-DAG matches
  --allow-empty                   Allow the input to be empty
  --allow-unused-prefixes         Allow prefixes that do not occur
  --check-prefix=<p>              Alias for --check-prefixes
  --check-prefixes=<p1,p2,...>    Prefixes to use (default: CHECK)
  --color                         Use colors even if stderr is not a terminal
  --comment-prefixes=<p1,...>     Comment prefixes (default: COM,RUN)
  -D<VAR=VALUE>                   Define a string variable
  -D#<FMT,VAR=EXPR>               Define a numeric variable
  --dump-input=<help|always|fail|never>
                                  Dump the annotated input (default: fail)
  --dump-input-context=<N>        Lines of context around filtered lines
  --dump-input-filter=<all|annotation-full|annotation|error>
                                  Which input lines to dump
  --enable-var-scope              Clear non-$ variables at each CHECK-LABEL
  --ignore-case                   Match case-insensitively
  --implicit-check-not=<pattern>  Add an implicit CHECK-NOT
  --input-file=<file>             File to check (default: stdin)
  --match-full-lines              Positive matches must cover whole lines
  --max-input-bytes=<N>           Read at most N bytes of each file
                                  (default: 268435456, 256 MiB)
  --strict-whitespace             Do not fold horizontal whitespace
  -v, -vv                         Report matches (and more)
`

// Main runs the filecheck command and returns its exit status: 0 when the
// input matches, 1 when it does not, 2 for usage and check-file errors.
func Main(env Env) int {
	stderr := env.Stderr
	prog := "filecheck"
	if len(env.Args) > 0 {
		prog = filepath.Base(env.Args[0])
	}
	args := []string{}
	if env.Getenv != nil {
		args = append(args, tokenizeGNU(env.Getenv("FILECHECK_OPTS"))...)
	}
	if len(env.Args) > 1 {
		args = append(args, env.Args[1:]...)
	}
	o, err := parseArgs(prog, args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if o.help {
		io.WriteString(env.Stdout, usageText)
		return 0
	}
	mode := dumpFail
	if len(o.dumpInputs) > 0 {
		mode = dumpNever
		for _, m := range o.dumpInputs {
			mode = max(mode, m)
		}
	}
	filter := filterError
	if len(o.dumpFilters) == 0 {
		if mode == dumpAlways {
			filter = filterAll
		}
	} else {
		for _, f := range o.dumpFilters {
			filter = max(filter, f)
		}
	}
	context := 5
	if len(o.dumpContexts) > 0 {
		context = 0
		for _, c := range o.dumpContexts {
			context = max(context, c)
		}
	}
	if mode == dumpHelp {
		io.WriteString(env.Stdout, dumpHelpText)
		return 0
	}
	if o.checkFile == "" {
		fmt.Fprintln(stderr, "<check-file> not specified")
		return 2
	}
	defineErr := false
	for _, d := range o.GlobalDefines {
		eq := strings.IndexByte(d, '=')
		switch {
		case eq < 0:
			fmt.Fprintf(stderr, "Missing equal sign in command-line definition '-D%s'\n", d)
			defineErr = true
		case eq == 0:
			fmt.Fprintf(stderr, "Missing variable name in command-line definition '-D%s'\n", d)
			defineErr = true
		}
	}
	if defineErr {
		return 2
	}
	if o.VerboseVerbose {
		o.Verbose = true
	}
	if !o.validatePrefixes(stderr) {
		return 2
	}
	o.Color = o.color || env.StderrTTY
	o.dumpMode, o.dumpFilter, o.DumpContext = mode, filter, context
	checkText, checkName, err := readFileOrStdin(o.checkFile, env.Stdin, o.maxInput)
	if err != nil {
		fmt.Fprintf(stderr, "Could not open check file '%s': %s\n", o.checkFile, err)
		return 2
	}
	loaded := false
	loadInput := func() (Source, error) {
		loaded = true
		text, name, err := readFileOrStdin(o.inputFile, env.Stdin, o.maxInput)
		display := o.inputFile
		if display == "-" {
			display = "<stdin>"
		}
		if err != nil {
			return Source{}, fmt.Errorf("Could not open input file '%s': %s", display, err)
		}
		return Source{Name: name, Text: text, display: display}, nil
	}
	code := run(&o.Options, Source{Name: checkName, Text: checkText, display: o.checkFile}, loadInput, stderr, env.Args)
	if !loaded && o.inputFile == "-" && env.Stdin != nil {
		// The check file alone decided (an error in it): still read the
		// piped input, bounded, so that the command writing it does not die
		// of SIGPIPE and fail a pipefail pipeline by a race.
		io.Copy(io.Discard, io.LimitReader(env.Stdin, o.maxInput))
	}
	return code
}

// readFileOrStdin reads a file, or stdin for "-", at most max bytes, and
// returns the buffer name diagnostics use.
func readFileOrStdin(name string, stdin io.Reader, max int64) (string, string, error) {
	if name == "-" {
		if stdin == nil {
			return "", "<stdin>", nil
		}
		b, err := readlimit.All(stdin, max, readlimit.Flag)
		return string(b), "<stdin>", err
	}
	b, err := readlimit.File(name, max, readlimit.Flag)
	if err != nil {
		return "", name, errnoMessage(err)
	}
	return string(b), name, nil
}

// errnoMessage renders an OS error like strerror ("No such file or
// directory").
func errnoMessage(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		msg := errno.Error()
		return errors.New(strings.ToUpper(msg[:1]) + msg[1:])
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
