package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		code int
		want string // in stderr
	}{
		{[]string{"kernels", "-n", "2"}, 0, ""},
		{[]string{"chain", "-n", "3", "--one-line"}, 0, ""},
		{[]string{"kernels", "-n", "2", "-n", "3"}, 2, "otir-gen: for the -n option: may only occur zero or one times! (given as '-n 2' and '-n 3')"},
		{[]string{"chain", "--one-line", "--one-line"}, 2, "for the --one-line option: may only occur zero or one times!"},
		{[]string{"kernels", "-n", "0"}, 2, "otir-gen: -n must be between 1 and 100000000, got 0"},
		{[]string{"chain", "-n", "-5"}, 2, "-n must be between 1 and 100000000, got -5"},
		{[]string{"kernels", "-n", "x"}, 2, "invalid value"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := mainCode(append([]string{"otir-gen"}, tc.args...), &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), tc.code, tc.want)
			}
			if tc.code == 0 && !strings.Contains(out.String(), "otir.kernel") {
				t.Errorf("stdout %q holds no kernel", out.String())
			}
		})
	}
}
