package optmain

import (
	"strings"
	"testing"
)

// Flags mean one thing: a flag that holds one value may be given once
// (under any of its names); pass flags and list flags may repeat.
func TestRepeatedFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string // "" when the command line is accepted
	}{
		{[]string{"-o", "a.otir", "-o", "b.otir"}, "otir-opt: for the -o option: may only occur zero or one times! (given as '-o a.otir' and '-o b.otir')"},
		{[]string{"-o=-", "-o", "-"}, "for the -o option: may only occur zero or one times! (given as '-o=-' and '-o -')"},
		{[]string{"--pass-pipeline=builtin.module(cse)", "-p", "builtin.module(dce)"}, "for the --pass-pipeline option: may only occur zero or one times!"},
		{[]string{"--split-input-file", "--split-input-file=//x"}, "for the --split-input-file option: may only occur zero or one times!"},
		{[]string{"--verify-each=false", "--verify-each"}, "for the --verify-each option: may only occur zero or one times!"},
		{[]string{"--print-op-generic", "--mlir-print-op-generic"}, "for the --print-op-generic option: may only occur zero or one times!"},
		{[]string{"--cse", "--cse", "--dce", "--cse"}, ""},
		{[]string{"--print-ir-after=cse", "--print-ir-after=dce"}, ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runOpt(t, "", "const 1\n", tc.args...)
			if tc.want == "" {
				if r.code != ExitOK {
					t.Errorf("exit %d, stderr %q", r.code, r.stderr)
				}
				return
			}
			if r.code != ExitUsage || !strings.Contains(r.stderr, tc.want) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", r.code, r.stdout, r.stderr, ExitUsage, tc.want)
			}
		})
	}
}
