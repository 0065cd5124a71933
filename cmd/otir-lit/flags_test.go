package main

import (
	"strings"
	"testing"
)

// Flags mean one thing: a flag that holds one value may be given once
// (under either of its names), and -j and --timeout reject values outside
// their ranges, naming them (exit 2, before any test runs).
func TestFlagsMeanOneThing(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-j", "2", "-j", "3", "x"}, "otir-lit: for the -j option: may only occur zero or one times! (given as '2' and '3')"},
		{[]string{"-j", "2", "--workers", "3", "x"}, "for the -j option: may only occur zero or one times!"},
		{[]string{"--timeout", "5", "x", "--timeout=6"}, "for the --timeout option: may only occur zero or one times!"},
		{[]string{"-v", "--verbose", "x"}, "for the -v option: may only occur zero or one times!"},
		{[]string{"--filter", "a", "--filter", "b", "x"}, "for the --filter option: may only occur zero or one times!"},
		{[]string{"-j", "-1", "x"}, "otir-lit: -j must be between 1 and 4096, got -1"},
		{[]string{"-j", "0", "x"}, "-j must be between 1 and 4096, got 0"},
		{[]string{"--timeout", "-1", "x"}, "otir-lit: --timeout must be between 0 and 1000000 (seconds; 0: no limit), got -1"},
		{[]string{"--timeout", "NaN", "x"}, "--timeout must be between 0 and 1000000 (seconds; 0: no limit), got NaN"},
		{[]string{"--timeout", "1e300", "x"}, "--timeout must be between 0 and 1000000"},
		// Lists may repeat: the run goes on to find no test in x.
		{[]string{"-D", "a=1", "--param", "b=2", "--feature", "f", "--feature", "g", "--path", "/", "--path", "/", "no-such-dir"}, "no such file or directory"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb strings.Builder
			if code := run(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errb.String(), tc.want)
			}
		})
	}
}
