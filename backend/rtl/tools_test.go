package rtl

import (
	"os/exec"
	"strings"
	"testing"
)

// The simulators and linters the tests run (iverilog and vvp, ghdl,
// verilator): each test that needs one is skipped where it is not
// installed.

// needTool skips the test when a simulator is not installed.
func needTool(t *testing.T, tool string) {
	t.Helper()
	if _, ok := lookTool(tool); !ok {
		t.Skipf("backend/rtl: %s not installed", tool)
	}
}

// lookTool returns the path of an installed tool.
func lookTool(tool string) (string, bool) {
	p, err := exec.LookPath(tool)
	return p, err == nil
}

// runStep runs a step that must succeed (compiling, elaborating, linting)
// in dir ("": the current one); a failure fails t with the tool's output.
func runStep(t *testing.T, dir, tool string, args ...string) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", tool, strings.Join(args, " "), err, out)
	}
}

// output runs a simulation in dir and returns what it prints on standard
// output; a failure fails t with that and its standard error.
func output(t *testing.T, dir, tool string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("%s %s: %v\n%s%s", tool, strings.Join(args, " "), err, out, msg)
	}
	return out
}

// simulate runs a self-checking simulation in dir and returns its output
// (standard output and error) and whether it exited non-zero; one that
// does not start fails t.
func simulate(t *testing.T, dir, tool string, args ...string) (out []byte, failed bool) {
	t.Helper()
	cmd := exec.Command(tool, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("%s: %v", tool, err)
	}
	return out, err != nil
}
