package testenv

import "testing"

func TestInt(t *testing.T) {
	t.Setenv("OTIR_TESTENV_N", "")
	if n := Int(t, "OTIR_TESTENV_N", 7); n != 7 {
		t.Errorf("empty: %d, want the default 7", n)
	}
	t.Setenv("OTIR_TESTENV_N", "42")
	if n := Int(t, "OTIR_TESTENV_N", 7); n != 42 {
		t.Errorf("set: %d, want 42", n)
	}
}

// fatalRecorder records Fatalf instead of stopping the test.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}
func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = format
}

func TestIntBad(t *testing.T) {
	t.Setenv("OTIR_TESTENV_N", "4k")
	f := &fatalRecorder{TB: t}
	Int(f, "OTIR_TESTENV_N", 7)
	if f.msg == "" {
		t.Error("a value that is not a whole number did not fail the test")
	}
}

func TestNeed(t *testing.T) {
	t.Setenv("OTIR_TESTENV_DIR", "/x")
	if got := Need(t, "OTIR_TESTENV_DIR", "set it"); got != "/x" {
		t.Errorf("set: %q, want /x", got)
	}
	t.Run("unset", func(t *testing.T) {
		t.Setenv("OTIR_TESTENV_DIR", "")
		Need(t, "OTIR_TESTENV_DIR", "set it")
		t.Error("an unset variable did not skip the test")
	})
}
