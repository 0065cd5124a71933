// Package testenv reads the tests' settings from the environment: what an
// optional test needs (OTIR_REFERENCE_BIN, OTIR_EXEC_DIGEST, ...) and the
// counts of generated cases that a long run raises (OTIR_DIFFTEST_KERNELS,
// OTIR_RTL_RANDOM, ...).
package testenv

import (
	"os"
	"strconv"
	"testing"
)

// Int is the whole number in the environment variable name, or def when it
// is unset or empty; any other value fails the test, so that a mistyped
// setting is not silently the default.
func Int(t testing.TB, name string, def int) int {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%s=%q: not a whole number", name, s)
	}
	return n
}

// Need is the value of the environment variable name; when it is unset or
// empty, the test is skipped with why (which says how to set it).
func Need(t testing.TB, name, why string) string {
	t.Helper()
	s := os.Getenv(name)
	if s == "" {
		t.Skip(why)
	}
	return s
}
