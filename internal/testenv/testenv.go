// Package testenv reads the tests' settings from the environment: the
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
