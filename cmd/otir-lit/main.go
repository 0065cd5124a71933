// Command otir-lit runs lit tests, modelled on LLVM's lit: every file with
// RUN: lines under the given paths is run (bash, pipefail) and reported as
// PASS, FAIL, XFAIL, XPASS, UNSUPPORTED or UNRESOLVED. The engine is
// package internal/lit, which `go test ./tests` uses too.
//
//	otir-lit [options] PATH...
//
// See docs/filecheck.md ("otir-lit") and otir-lit --help.
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/internal/lit"
	"github.com/otir-dev/otir/internal/readlimit"
)

const usage = `usage: otir-lit [options] PATH...

Runs the lit tests in each PATH (a test file or a directory), like LLVM's
lit. A PATH belongs to the suite of the nearest lit.cfg.py (or lit.cfg) at
or above it; otir-lit reads config.name, config.suffixes, config.excludes,
config.substitutions.append((KEY, VALUE)) and
config.available_features.add(NAME) from it, and substitutions from every
lit.local.cfg on the way down, and ignores the rest. Without a config,
the project's test extensions (.otir, .mlir, .alir, .lit, .test) are run,
and their directives must open a comment (// RUN: in .otir); in a suite
with a config, or with --suffixes, directives are found anywhere on a
line, as LLVM's lit finds them.

Tools: the directory of otir-lit itself (filecheck, not, otir-opt, ... when
built with go build -o DIR ./cmd/...) comes first on PATH, then FileCheck
(linked to filecheck) and count (built in), then --path directories, then
$PATH.

Options:
  -v, --verbose        show the commands and output of failing tests
  -a, --show-all       show the commands and output of every test
  -s, --succinct       print only failures and the summary
  -q, --quiet          print only failures
  --filter REGEX       run only tests whose name ("SUITE :: path") matches
                       (default: $LIT_FILTER)
  -D, --param NAME=VAL define the substitution %{NAME} as VAL
  --suffixes LIST      test file suffixes, comma separated (e.g. .txt,.ll);
                       overrides config.suffixes
  --feature LIST       add features for REQUIRES/UNSUPPORTED/XFAIL
  --path DIR           add DIR to PATH (after otir-lit's own directory)
  -j, --workers N      tests run at once, 1 to 4096 (default: the number of CPUs)
  --timeout SECONDS    time limit of each RUN line, 0 (no limit) to 1000000
                       (default 60)

A flag that holds one value may be given once; -D, --feature and --path
may repeat.

Exit status: 0 when every test passed, failed as expected or was
unsupported; 1 when some failed, passed unexpectedly or was unresolved;
2 for bad usage or when no test was found; 3 on an internal error (a bug:
please report it).
`

// The ranges of -j and --timeout (seconds: a million is eleven days).
const (
	maxWorkers = 4096
	maxTimeout = 1e6
)

// listFlag is a flag that may be given more than once.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }
func (l *listFlag) IsList() bool       { return true }

func main() {
	defer crash.Guard("otir-lit")
	if filepath.Base(os.Args[0]) == "count" {
		os.Exit(countMain(os.Args[1:], os.Stdin, os.Stderr))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// countMain is LLVM's count: it succeeds when standard input has exactly
// args[0] lines.
func countMain(args []string, stdin io.Reader, stderr io.Writer) int {
	var want int
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: count <expected line count> < input")
		return 2
	}
	if _, err := fmt.Sscan(args[0], &want); err != nil || want < 0 {
		fmt.Fprintf(stderr, "count: invalid number %q\n", args[0])
		return 2
	}
	b, err := readlimit.All(stdin, readlimit.Default, "")
	if err != nil {
		fmt.Fprintf(stderr, "count: %v\n", err)
		return 2
	}
	got := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		got++
	}
	if got != want {
		fmt.Fprintf(stderr, "Expected %d lines, got %d.\n", want, got)
		return 1
	}
	return 0
}

type job struct {
	suite *lit.Suite
	path  string
	name  string // SUITE :: rel
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("otir-lit", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var verbose, showAll, succinct, quiet, help bool
	var filter, suffixes string
	var params, features, paths listFlag
	workers, timeout := runtime.NumCPU(), 60.0
	// alias gives a flag a second name, sharing its value (so that -j 1
	// --workers 2 is a flag given twice).
	alias := func(name, other string) { fs.Var(fs.Lookup(name).Value, other, "") }
	for _, b := range []struct {
		v           *bool
		short, long string
	}{{&verbose, "v", "verbose"}, {&showAll, "a", "show-all"}, {&succinct, "s", "succinct"}, {&quiet, "q", "quiet"}, {&help, "h", "help"}} {
		fs.BoolVar(b.v, b.short, false, "")
		alias(b.short, b.long)
	}
	fs.IntVar(&workers, "j", workers, "")
	alias("j", "workers")
	fs.Var(&params, "D", "")
	alias("D", "param")
	fs.StringVar(&filter, "filter", os.Getenv("LIT_FILTER"), "")
	fs.StringVar(&suffixes, "suffixes", "", "")
	fs.Var(&features, "feature", "")
	fs.Var(&paths, "path", "")
	fs.Float64Var(&timeout, "timeout", timeout, "")
	repeated := cliargs.OnceFlagSet(fs)
	// Accept -DNAME=VAL and options after the paths, as lit does.
	var pre []string
	for _, a := range args {
		if strings.HasPrefix(a, "-D") && len(a) > 2 && a[2] != '=' {
			pre = append(pre, "-D", a[2:])
			continue
		}
		pre = append(pre, a)
	}
	var inputs []string
	for rest := pre; ; {
		if err := fs.Parse(rest); err != nil {
			fmt.Fprintf(stderr, "otir-lit: %v (see --help)\n", repeated(err))
			return 2
		}
		rest = fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			inputs = append(inputs, rest[1:]...)
			break
		}
		inputs, rest = append(inputs, rest[0]), rest[1:]
	}
	if help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if len(inputs) == 0 {
		fmt.Fprintln(stderr, "usage: otir-lit [options] PATH... (see --help)")
		return 2
	}
	for _, err := range []error{
		cliargs.CheckRange("-j", workers, 1, maxWorkers, ""),
		cliargs.CheckRange("--timeout", timeout, 0, maxTimeout, "seconds; 0: no limit"),
	} {
		if err != nil {
			fmt.Fprintf(stderr, "otir-lit: %v\n", err)
			return 2
		}
	}
	runTimeout := time.Duration(timeout * float64(time.Second))
	if timeout == 0 {
		runTimeout = math.MaxInt64
	}
	var filterRE *regexp.Regexp
	if filter != "" {
		var err error
		if filterRE, err = regexp.Compile(filter); err != nil {
			fmt.Fprintf(stderr, "otir-lit: --filter: %v\n", err)
			return 2
		}
	}
	var defines []lit.Subst
	for _, p := range params {
		name, val, _ := strings.Cut(p, "=")
		if name == "" {
			fmt.Fprintf(stderr, "otir-lit: -D %q: want NAME=VALUE\n", p)
			return 2
		}
		defines = append(defines, lit.Subst{Key: "%{" + name + "}", Value: val})
	}
	var sufList []string
	for _, s := range strings.Split(suffixes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			sufList = append(sufList, s)
		}
	}

	// Tools: otir-lit's own directory, then FileCheck and count, then --path.
	toolDir, err := os.MkdirTemp("", "otir-lit-tools-")
	if err != nil {
		fmt.Fprintf(stderr, "otir-lit: %v\n", err)
		return 2
	}
	defer os.RemoveAll(toolDir)
	var pathDirs []string
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			exeDir := filepath.Dir(exe)
			pathDirs = append(pathDirs, exeDir)
			os.Symlink(exe, filepath.Join(toolDir, "count"))
			fc := filepath.Join(exeDir, "filecheck")
			if _, err := os.Stat(filepath.Join(exeDir, "FileCheck")); err != nil {
				if _, err := os.Stat(fc); err == nil {
					os.Symlink(fc, filepath.Join(toolDir, "FileCheck"))
				}
			}
		}
	}
	pathDirs = append(pathDirs, toolDir)
	for _, p := range paths {
		if abs, err := filepath.Abs(p); err == nil {
			pathDirs = append(pathDirs, abs)
		}
	}
	featureSet := map[string]bool{}
	for _, d := range pathDirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			featureSet[e.Name()] = true
		}
	}
	for _, f := range features {
		for _, x := range strings.Split(f, ",") {
			if x = strings.TrimSpace(x); x != "" {
				featureSet[x] = true
			}
		}
	}

	// Discovery.
	var jobs []job
	seen := map[string]bool{}
	for _, in := range inputs {
		suite, err := lit.LoadSuite(in)
		if err != nil {
			fmt.Fprintf(stderr, "otir-lit: %v\n", err)
			return 2
		}
		if sufList != nil {
			suite.Suffixes, suite.Anywhere = sufList, true
		}
		abs, _ := filepath.Abs(in)
		files, err := lit.DiscoverWith(abs, suite.Suffixes, suite.Excludes)
		if err != nil {
			fmt.Fprintf(stderr, "otir-lit: %v\n", err)
			return 2
		}
		for _, f := range files {
			if seen[f] {
				continue
			}
			seen[f] = true
			rel, _ := filepath.Rel(suite.Root, f)
			name := suite.Name + " :: " + filepath.ToSlash(rel)
			if filterRE != nil && !filterRE.MatchString(name) {
				continue
			}
			jobs = append(jobs, job{suite, f, name})
		}
	}
	if len(jobs) == 0 {
		fmt.Fprintln(stderr, "otir-lit: error: did not discover any tests for provided path(s)")
		return 2
	}

	workers = max(1, min(workers, len(jobs)))
	if !quiet {
		fmt.Fprintf(stdout, "-- Testing: %d tests, %d workers --\n", len(jobs), workers)
	}
	start := time.Now()
	results := make([]*lit.Result, len(jobs))
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				res := runOne(j, defines, featureSet, pathDirs, runTimeout)
				mu.Lock()
				results[i] = res
				done++
				report(stdout, j, res, done, len(jobs), verbose, showAll, succinct, quiet)
				mu.Unlock()
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	return summary(stdout, jobs, results, time.Since(start), quiet)
}

func runOne(j job, defines []lit.Subst, features map[string]bool, pathDirs []string, timeout time.Duration) *lit.Result {
	content, err := readlimit.File(j.path, readlimit.Default, "")
	if err != nil {
		return &lit.Result{Status: lit.Unresolved, Reason: err.Error()}
	}
	t, err := lit.ParseWith(j.path, j.name, content, j.suite.Markers(j.path), defines)
	if err != nil {
		return &lit.Result{Status: lit.Unresolved, Reason: err.Error()}
	}
	fs := map[string]bool{}
	for k, v := range features {
		fs[k] = v
	}
	for _, f := range j.suite.Features {
		fs[f] = true
	}
	cfg := &lit.Config{
		PathDirs:      pathDirs,
		Features:      fs,
		Substitutions: append(append([]lit.Subst(nil), defines...), j.suite.TestSubstitutions(j.path)...),
		Timeout:       timeout,
	}
	return cfg.Run(t)
}

func bad(s lit.Status) bool { return s == lit.Fail || s == lit.XPass || s == lit.Unresolved }

func report(w io.Writer, j job, r *lit.Result, i, n int, verbose, showAll, succinct, quiet bool) {
	if (quiet || succinct) && !bad(r.Status) {
		return
	}
	fmt.Fprintf(w, "%s: %s (%d of %d)\n", r.Status, j.name, i, n)
	if showAll || verbose && bad(r.Status) {
		stars := strings.Repeat("*", 20)
		fmt.Fprintf(w, "%s TEST '%s' %s %s\n", stars, j.name, map[bool]string{true: "FAILED", false: "RESULTS"}[bad(r.Status)], stars)
		switch {
		case r.Status == lit.Unresolved || r.Status == lit.Unsupported:
			fmt.Fprintln(w, r.Reason)
		case r.Status == lit.XPass:
			fmt.Fprintln(w, r.Report())
			fallthrough
		default:
			io.WriteString(w, r.Log)
		}
		fmt.Fprintln(w, stars)
	}
}

func summary(w io.Writer, jobs []job, results []*lit.Result, elapsed time.Duration, quiet bool) int {
	count := map[lit.Status]int{}
	var failed []string
	for i, r := range results {
		count[r.Status]++
		if bad(r.Status) {
			failed = append(failed, fmt.Sprintf("%s: %s", r.Status, jobs[i].name))
		}
	}
	sort.Strings(failed)
	if len(failed) > 0 {
		fmt.Fprintf(w, "%s\nFailed Tests (%d):\n", strings.Repeat("*", 20), len(failed))
		for _, f := range failed {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if !quiet {
		fmt.Fprintf(w, "\nTesting Time: %.2fs\n\nTotal Discovered Tests: %d\n", elapsed.Seconds(), len(jobs))
		for _, s := range []struct {
			st   lit.Status
			name string
		}{
			{lit.Unsupported, "Unsupported"}, {lit.Pass, "Passed"}, {lit.XFail, "Expectedly Failed"},
			{lit.Unresolved, "Unresolved"}, {lit.XPass, "Unexpectedly Passed"}, {lit.Fail, "Failed"},
		} {
			if n := count[s.st]; n > 0 {
				fmt.Fprintf(w, "  %-20s: %d (%.2f%%)\n", s.name, n, 100*float64(n)/float64(len(jobs)))
			}
		}
	}
	if len(failed) > 0 {
		return 1
	}
	return 0
}
