package crash

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestReport(t *testing.T) {
	var b bytes.Buffer
	code := Report(&b, "otir-run", "index out of range", []byte("goroutine 1 [running]:\n"))
	want := "otir-run: internal error: index out of range\n" +
		"otir-run: this is a bug in otir-run, not in the input: please report it, with the command line and its input files\n" +
		"goroutine 1 [running]:\n"
	if code != 3 || b.String() != want {
		t.Errorf("code %d, output:\n%s\nwant code 3 and:\n%s", code, b.String(), want)
	}
}

// TestGuard runs a panicking main in a child process (this test binary,
// re-run with CRASH_TEST_PANIC set): exit status 3, the message, the stack.
func TestGuard(t *testing.T) {
	if os.Getenv("CRASH_TEST_PANIC") == "1" {
		defer Guard("tool")
		var s []int
		_ = s[len(os.Args)] // index out of range
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGuard$")
	cmd.Env = append(os.Environ(), "CRASH_TEST_PANIC=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitCode {
		t.Fatalf("got %v, want exit status %d; stderr:\n%s", err, ExitCode, stderr.String())
	}
	got := stderr.String()
	for _, want := range []string{"tool: internal error: runtime error: index out of range", "please report it", "[running]:", "crash.TestGuard"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr lacks %q:\n%s", want, got)
		}
	}
}
