// Package lit is a runner for lit-style tests modelled on LLVM's lit: files
// holding "RUN:" command lines that are executed by bash with pipefail,
// with lit's substitutions (%s, %S, %p, %t, %T, %%, %/s, %basename_t,
// %{pathsep}, ...; a path the shell would misread is quoted, quote.go),
// DEFINE:/REDEFINE: of %{name} substitutions, END., and
// XFAIL/REQUIRES/UNSUPPORTED boolean expressions. tests/lit_test.go drives
// it from `go test`; cmd/otir-lit is its command line.
package lit

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Suffixes maps each test file extension to the comment markers that may
// introduce its directives. This is the one place to register a new kind of
// test file.
// (Note: this repository's .gitignore ignores *.test, so generic test
// scripts are named *.lit.)
var Suffixes = map[string][]string{
	".otir": {"//"},
	".mlir": {"//"},
	".alir": {"#", "//"},
	".lit":  {"#", "//", ";"},
	".test": {"#", "//", ";"},
}

// SkipDirs are directory names whose files are inputs, never tests.
var SkipDirs = map[string]bool{"Inputs": true, "testdata": true}

// Status is the outcome of a test.
type Status int

const (
	Pass        Status = iota
	Fail               // a RUN line failed
	XFail              // failed as expected
	XPass              // marked XFAIL but passed
	Unsupported        // REQUIRES/UNSUPPORTED excluded it
	Unresolved         // the test could not be run (a bad directive)
)

func (s Status) String() string {
	return [...]string{"PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED", "UNRESOLVED"}[s]
}

// Result is the outcome of running a test.
type Result struct {
	Status   Status
	Reason   string // why it is unsupported or unresolved
	Line     int    // 1-based index of the failing RUN line
	Command  string // the failing command after substitution
	ExitCode int
	Output   string // its combined stdout and stderr
	Log      string // every command run with its output, as lit -a shows
}

// Report renders a failed result for a test log.
func (r *Result) Report() string {
	switch r.Status {
	case XPass:
		return "XPASS: the test is marked XFAIL but every RUN line passed"
	case Unresolved:
		return "UNRESOLVED: " + r.Reason
	}
	out := r.Output
	if len(out) > 20000 {
		out = out[:20000] + "\n... (output truncated)"
	}
	return fmt.Sprintf("RUN line %d failed with exit status %d:\n  %s\noutput:\n%s", r.Line, r.ExitCode, r.Command, out)
}

// Config says how to run tests.
type Config struct {
	BinDir        string          // prepended to PATH
	PathDirs      []string        // prepended to PATH after BinDir
	Features      map[string]bool // for REQUIRES/UNSUPPORTED/XFAIL
	Substitutions []Subst         // applied after the test's DEFINEs, before Builtins (which are quoted: Expand)
	Timeout       time.Duration   // per RUN line; 0 means one minute
}

// anyTrue reports whether some expression in exprs holds ("*" always does).
func (c *Config) anyTrue(exprs []string) (bool, string, error) {
	for _, e := range exprs {
		if e == "*" {
			return true, e, nil
		}
		v, err := EvalBool(e, c.Features)
		if err != nil || v {
			return v, e, err
		}
	}
	return false, "", nil
}

// Run executes a test's RUN lines in order in a fresh temporary directory
// and stops at the first failure.
func (c *Config) Run(t *Test) *Result {
	for _, e := range t.Requires {
		v, err := EvalBool(e, c.Features)
		if err != nil {
			return &Result{Status: Unresolved, Reason: "REQUIRES: " + err.Error()}
		}
		if !v {
			return &Result{Status: Unsupported, Reason: "missing feature " + e}
		}
	}
	if v, e, err := c.anyTrue(t.Unsupported); err != nil {
		return &Result{Status: Unresolved, Reason: "UNSUPPORTED: " + err.Error()}
	} else if v {
		return &Result{Status: Unsupported, Reason: "unsupported with " + e}
	}
	xfail, _, err := c.anyTrue(t.XFail)
	if err != nil {
		return &Result{Status: Unresolved, Reason: "XFAIL: " + err.Error()}
	}
	tmpDir, err := os.MkdirTemp("", "lit-")
	if err != nil {
		return &Result{Status: Unresolved, Reason: err.Error()}
	}
	defer os.RemoveAll(tmpDir)
	builtins := Builtins(t.Path, tmpDir)
	env := c.environ()
	timeout := c.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	res := &Result{Status: Pass}
	var log strings.Builder
	for i, cmd := range t.Run {
		full := Expand(cmd, c.Substitutions, builtins)
		if i < len(t.RunLine) {
			fmt.Fprintf(&log, "# RUN: at line %d\n", t.RunLine[i])
		}
		fmt.Fprintf(&log, "%s\n", full)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		sh := exec.CommandContext(ctx, "bash", "-c", "set -o pipefail\n"+full)
		sh.Dir, sh.Env = tmpDir, env
		var out bytes.Buffer
		sh.Stdout, sh.Stderr = &out, &out
		err := sh.Run()
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel()
		log.Write(out.Bytes())
		if err != nil {
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if timedOut {
				out.WriteString(fmt.Sprintf("\n(timed out after %v)", timeout))
			}
			fmt.Fprintf(&log, "# error: command failed with exit status: %d\n", code)
			res = &Result{Status: Fail, Line: i + 1, Command: full, ExitCode: code, Output: out.String()}
			break
		}
	}
	switch {
	case xfail && res.Status == Fail:
		res = &Result{Status: XFail}
	case xfail:
		res = &Result{Status: XPass}
	}
	res.Log = log.String()
	return res
}

// environ is the process environment with BinDir and PathDirs first on
// PATH and FILECHECK_OPTS removed, so that a developer's settings cannot
// change results.
func (c *Config) environ() []string {
	var env []string
	path := os.Getenv("PATH")
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "FILECHECK_OPTS=") {
			continue
		}
		env = append(env, kv)
	}
	dirs := c.PathDirs
	if c.BinDir != "" {
		dirs = append([]string{c.BinDir}, dirs...)
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		path = dirs[i] + string(os.PathListSeparator) + path
	}
	return append(env, "PATH="+path)
}
