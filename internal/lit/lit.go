// Package lit is a small runner for lit-style tests: files whose comments
// hold "RUN:" command lines that are executed by bash, with LLVM lit's
// basic substitutions (%s, %S, %p, %t, %T, %%) and XFAIL/REQUIRES/
// UNSUPPORTED directives. tests/lit_test.go drives it from `go test`.
package lit

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
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

// Test is a parsed test file.
type Test struct {
	Path        string   // absolute path
	Name        string   // slash-separated path relative to the test root
	Run         []string // RUN commands, continuation lines joined
	XFail       []string // XFAIL features ("*" matches always)
	Requires    []string
	Unsupported []string
}

var directiveRE = regexp.MustCompile(`^\s*(//|#|;)\s*(RUN|XFAIL|REQUIRES|UNSUPPORTED):(.*)$`)

// Parse reads the directives of a test file. Comment markers other than
// those registered for the file's extension are ignored.
func Parse(path, name string, content []byte) (*Test, error) {
	t := &Test{Path: path, Name: name}
	markers := Suffixes[filepath.Ext(path)]
	pending, inRun := "", false
	lines := strings.Split(string(content), "\n")
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		m := directiveRE.FindStringSubmatch(line)
		if m == nil || !contains(markers, m[1]) {
			if inRun {
				return nil, fmt.Errorf("%s:%d: RUN line continued with '\\' but the next line is not a RUN line", name, i+1)
			}
			continue
		}
		value := strings.TrimSpace(m[3])
		switch m[2] {
		case "RUN":
			if strings.HasSuffix(value, `\`) {
				pending += strings.TrimSuffix(value, `\`)
				inRun = true
				continue
			}
			t.Run = append(t.Run, strings.TrimSpace(pending+value))
			pending, inRun = "", false
		case "XFAIL":
			t.XFail = append(t.XFail, splitList(value)...)
		case "REQUIRES":
			t.Requires = append(t.Requires, splitList(value)...)
		case "UNSUPPORTED":
			t.Unsupported = append(t.Unsupported, splitList(value)...)
		}
	}
	if inRun {
		return nil, fmt.Errorf("%s: last RUN line ends with '\\'", name)
	}
	if len(t.Run) == 0 {
		return nil, fmt.Errorf("%s: no RUN lines", name)
	}
	return t, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Discover lists the test files under root (registered extensions only,
// outside SkipDirs), sorted by path.
func Discover(root string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (SkipDirs[d.Name()] || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := Suffixes[filepath.Ext(path)]; ok {
			files = append(files, path)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

// Substitute applies lit's basic substitutions to a RUN command: %s is the
// test file, %S and %p its directory, %t a per-test temporary path, %T the
// temporary directory and %% a literal percent sign.
func Substitute(cmd, testPath, tmpBase string) string {
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		if cmd[i] != '%' || i+1 == len(cmd) {
			b.WriteByte(cmd[i])
			continue
		}
		switch cmd[i+1] {
		case 's':
			b.WriteString(testPath)
		case 'S', 'p':
			b.WriteString(filepath.Dir(testPath))
		case 't':
			b.WriteString(tmpBase)
		case 'T':
			b.WriteString(filepath.Dir(tmpBase))
		case '%':
			b.WriteByte('%')
		default:
			// Unknown substitutions (e.g. FileCheck's -D#%x,...) stay as is.
			b.WriteString(cmd[i : i+2])
		}
		i++
	}
	return b.String()
}

// Status is the outcome of a test.
type Status int

const (
	Pass        Status = iota
	Fail               // a RUN line failed
	XFail              // failed as expected
	XPass              // marked XFAIL but passed
	Unsupported        // REQUIRES/UNSUPPORTED excluded it
)

func (s Status) String() string {
	return [...]string{"PASS", "FAIL", "XFAIL", "XPASS", "UNSUPPORTED"}[s]
}

// Result is the outcome of running a test.
type Result struct {
	Status   Status
	Reason   string // why it is unsupported
	Line     int    // 1-based index of the failing RUN line
	Command  string // the failing command after substitution
	ExitCode int
	Output   string // its combined stdout and stderr
}

// Report renders a failed result for a test log.
func (r *Result) Report() string {
	if r.Status == XPass {
		return "XPASS: the test is marked XFAIL but every RUN line passed"
	}
	out := r.Output
	if len(out) > 20000 {
		out = out[:20000] + "\n... (output truncated)"
	}
	return fmt.Sprintf("RUN line %d failed with exit status %d:\n  %s\noutput:\n%s", r.Line, r.ExitCode, r.Command, out)
}

// Config says how to run tests.
type Config struct {
	BinDir   string          // prepended to PATH
	Features map[string]bool // for REQUIRES/UNSUPPORTED/XFAIL
	Timeout  time.Duration   // per RUN line; 0 means one minute
}

func (c *Config) hasFeature(f string) bool { return f == "*" || c.Features[f] }

// Run executes a test's RUN lines in order in a fresh temporary directory
// and stops at the first failure.
func (c *Config) Run(t *Test) *Result {
	for _, f := range t.Requires {
		if !c.hasFeature(f) {
			return &Result{Status: Unsupported, Reason: "missing feature " + f}
		}
	}
	for _, f := range t.Unsupported {
		if c.hasFeature(f) {
			return &Result{Status: Unsupported, Reason: "unsupported with " + f}
		}
	}
	xfail := false
	for _, f := range t.XFail {
		xfail = xfail || c.hasFeature(f)
	}
	tmpDir, err := os.MkdirTemp("", "lit-")
	if err != nil {
		return &Result{Status: Fail, Output: err.Error()}
	}
	defer os.RemoveAll(tmpDir)
	tmpBase := filepath.Join(tmpDir, filepath.Base(t.Path)+".tmp")
	env := c.environ()
	timeout := c.Timeout
	if timeout == 0 {
		timeout = time.Minute
	}
	res := &Result{Status: Pass}
	for i, cmd := range t.Run {
		full := Substitute(cmd, t.Path, tmpBase)
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		sh := exec.CommandContext(ctx, "bash", "-c", "set -o pipefail\n"+full)
		sh.Dir, sh.Env = tmpDir, env
		var out bytes.Buffer
		sh.Stdout, sh.Stderr = &out, &out
		err := sh.Run()
		timedOut := ctx.Err() == context.DeadlineExceeded
		cancel()
		if err != nil {
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if timedOut {
				out.WriteString(fmt.Sprintf("\n(timed out after %v)", timeout))
			}
			res = &Result{Status: Fail, Line: i + 1, Command: full, ExitCode: code, Output: out.String()}
			break
		}
	}
	switch {
	case xfail && res.Status == Fail:
		return &Result{Status: XFail}
	case xfail:
		return &Result{Status: XPass}
	}
	return res
}

// environ is the process environment with BinDir first on PATH and
// FILECHECK_OPTS removed, so that a developer's settings cannot change
// results.
func (c *Config) environ() []string {
	var env []string
	path := os.Getenv("PATH")
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "FILECHECK_OPTS=") {
			continue
		}
		env = append(env, kv)
	}
	if c.BinDir != "" {
		path = c.BinDir + string(os.PathListSeparator) + path
	}
	return append(env, "PATH="+path)
}
