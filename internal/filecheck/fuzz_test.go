package filecheck

import (
	"io"
	"testing"
)

// FuzzFileCheck runs Check on arbitrary check text and input with options
// chosen by flags. It only requires that nothing panics; crashers found
// are kept under testdata/fuzz/FuzzFileCheck as regression inputs.
func FuzzFileCheck(f *testing.F) {
	f.Add("CHECK: a\nCHECK-NEXT: [[X:b+]]\nCHECK-SAME: [[X]]\n", "a\nbb bb\n", uint8(0))
	f.Add("CHECK-DAG: {{(a|b)\\1}}\nCHECK-NOT: [[#N:]]\nCHECK-LABEL: x\nCHECK-COUNT-2: [[#N+1]]\n", "aa 1\nx 2 2\n", uint8(0xff))
	f.Add("CHECK: [[#%x,A:]] [[#add(A,0x10)]]\nCHECK-EMPTY:\nCHECK{LITERAL}: [[\n", "f 1f\n\n[[\n", uint8(5))
	f.Fuzz(func(t *testing.T, check, input string, flags uint8) {
		o := Options{
			MatchFullLines:            flags&1 != 0,
			StrictWhitespace:          flags&2 != 0,
			IgnoreCase:                flags&4 != 0,
			EnableVarScope:            flags&8 != 0,
			AllowDeprecatedDagOverlap: flags&16 != 0,
			VerboseVerbose:            flags&32 != 0,
			AllowEmptyInput:           true,
			DumpInput:                 "always",
		}
		if flags&64 != 0 {
			o.ImplicitCheckNot = []string{"{{x+}}"}
		}
		if flags&128 != 0 {
			o.GlobalDefines = []string{"V=1", "#N=2"}
		}
		code := Check(o, Source{Name: "check", Text: check}, Source{Name: "input", Text: input}, io.Discard)
		if code < 0 || code > 2 {
			t.Fatalf("exit status %d", code)
		}
	})
}
