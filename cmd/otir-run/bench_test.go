package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestBench checks the lines of otir-run bench and its exit codes: 1 for a
// bad program or sample file, 2 for bad usage.
func TestBench(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join("..", "..", "tests", "alir", "Inputs", "add-1bit.json")
	rows := filepath.Join(dir, "x.txt")
	bad := filepath.Join(dir, "bad.txt")
	os.WriteFile(rows, []byte("1 1\n0 1\n0 0\n"), 0o666)
	os.WriteFile(bad, []byte("1 1\n0 x\n"), 0o666)
	code := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		c := mainCode(append([]string{"otir-run", "bench"}, args...), strings.NewReader("1 0\n"), &out, &errb)
		return c, out.String(), errb.String()
	}
	c, out, errs := code(prog, "--input", rows, "-j", "2", "--repeat", "3")
	if c != 0 {
		t.Fatalf("exit %d: %s", c, errs)
	}
	want := []string{`program: \S+add-1bit.json \(json\)`, `ops: 3`, `slots: \d+`, `storage: int32`, `samples: 3`, `repeats: 3`, `workers: 2`,
		`seconds: [0-9.]+`, `(cpu-seconds: [0-9.]+\n)?samples/s: \S+`, `op-evals/s: \S+`}
	if !regexp.MustCompile(`^` + strings.Join(want, `\n`) + `\n$`).MatchString(out) {
		t.Errorf("output:\n%s", out)
	}
	if c, out, _ := code(prog, "--input", "-", "--min-time", "1ms"); c != 0 || !strings.Contains(out, "samples: 1\n") {
		t.Errorf("bench with rows from stdin: exit %d, %s", c, out)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{prog, "--input", bad}, 1, bad + ":2:3: error: bad number \"x\""},
		{[]string{prog + ".missing", "--input", rows}, 1, "error: cannot open the file"},
		{[]string{prog}, 2, "--input is required"},
		{[]string{prog, "--input", rows, "--repeat", "0"}, 2, "--repeat must be at least 1, got 0"},
		{[]string{prog, "--input", rows, "--repeat", "2", "--min-time", "1s"}, 2, "exclude each other"},
		{[]string{prog, "--input", rows, "-j", "-1"}, 2, "-j must be"},
		{[]string{prog, prog, "--input", rows}, 2, "want one program"},
	} {
		c, _, errs := code(tc.args...)
		if c != tc.code || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, %q; want exit %d and %q", tc.args, c, errs, tc.code, tc.msg)
		}
	}
}
