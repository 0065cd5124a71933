package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
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
		{[]string{"shift-add", "-n", "300", "--inputs", "10", "--outputs", "5"}, 0, ""},
		{[]string{"shift-add", "-n", "3000000"}, 2, "otir-gen: -n must be between 2 and 2097152, got 3000000"},
		{[]string{"shift-add", "--inputs", "0"}, 2, "--inputs must be between 1 and 2097152, got 0"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := mainCode(append([]string{"otir-gen"}, tc.args...), &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), tc.code, tc.want)
			}
			want := "otir.kernel"
			if tc.args[0] == "shift-add" {
				want = `"meta":"ALIRModel"`
			}
			if tc.code == 0 && !strings.Contains(out.String(), want) {
				t.Errorf("stdout %q holds no kernel", out.String())
			}
		})
	}
}

// TestShiftAdd: the program shift-add writes is valid ALIR with the sizes
// asked for.
func TestShiftAdd(t *testing.T) {
	var out, errb bytes.Buffer
	if code := mainCode([]string{"otir-gen", "shift-add", "-n", "500", "--inputs", "20", "--outputs", "7", "--seed", "3"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	p, err := alir.DecodeJSON(out.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != 500 || p.NumInputs() != 20 || len(p.Outputs) != 7 {
		t.Errorf("%d ops, %d inputs, %d outputs; want 500, 20, 7", len(p.Ops), p.NumInputs(), len(p.Outputs))
	}
}
