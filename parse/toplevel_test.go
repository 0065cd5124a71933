package parse

import (
	"strings"
	"testing"
)

// TestTopLevelAgrees checks that the top level read as a block's
// operations are (parseFile) gives what the grammar's File production gives:
// the same IR, or the same error, for files of operations of every form,
// with a module among them, and with errors between them.
func TestTopLevelAgrees(t *testing.T) {
	kernel := "otir.kernel @k%d() {\n  otir.return\n}\n"
	var many strings.Builder
	for i := 0; i < 50; i++ {
		many.WriteString(strings.Replace(kernel, "%d", strings.Repeat("x", i+1), 1))
	}
	srcs := []string{
		"",
		"// only a comment\n",
		many.String(),
		string(GenerateEmptyKernels(20)),
		"otir.kernel @a() { otir.return }\n%c = otir.constant 1 : i8\n%d = \"otir.add\"(%c, %c) : (i8, i8) -> i8\n",
		"\"otir.kernel\"() ({\n  \"otir.return\"() : () -> ()\n}) {function_type = () -> (), sym_name = \"g\"} : () -> ()\notir.kernel @p() { otir.return }\n",
		"otir.kernel @a() { otir.return }\nmodule {\n}\n",
		"module {\n  otir.kernel @a() { otir.return }\n}\n",
		"module attributes {otir.typing_style = \"cpp\"} {\n}\nmodule {\n}\n",
		"\"builtin.module\"() ({\n}) : () -> ()\n",
		"otir.kernel @a() { otir.return }\n}\n",
		"otir.kernel @a() { otir.return }\nfoo.bar\n",
		"otir.kernel @a() { otir.return }\n\"foo.bar\"() : () -> ()\n",
		"otir.kernel @a() { otir.return }\n%x = otir.constant 1 : i8 %x = otir.constant 2 : i8\n",
		"otir.kernel @a() { otir.return }\n%x = otir.add %y, %y : i8\n",
		"otir.kernel @a() { otir.return }\notir.kernel @a() { otir.return\n",
		"otir.kernel @a() { otir.return }\n%x, = otir.constant 1 : i8\n",
		"otir.kernel @a() { otir.return }\n%x = \n",
		"otir.kernel @a() { otir.return }\n\"otir.constant\"() {value = 1 : i8} : () -> i8 loc(\"x\":1:2)\n",
		"otir.kernel @a() { otir.return } loc(#l)\n#l = loc(\"f\":3:4)\n",
		"otir.kernel @a() { otir.return }\nmodule\n",
		"otir.kernel @a() { scf.for %i = %c to %c step %c { } otir.return }\n",
	}
	// The files of operations alone take the fast way.
	for _, src := range srcs[2:6] {
		lex, err := newPeekingLexer(src, 0, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if topLevel(lex, &parseState{workers: 1}) == nil {
			t.Fatalf("the top level of\n%s\nwent to the grammar", src)
		}
	}
	for _, src := range srcs {
		for _, unreg := range []bool{false, true} {
			want, _ := outcome(t, []byte(src), Options{Workers: 1, noFastPath: true, noStream: true, AllowUnregistered: unreg})
			for _, opts := range []Options{{Workers: 1, noStream: true}, {Workers: 2, MinChunkBytes: 1}} {
				opts.AllowUnregistered = unreg
				if got, _ := outcome(t, []byte(src), opts); got != want {
					t.Fatalf("%+v on\n%s\n--- got\n%s\n--- want (grammar)\n%s", opts, src, got, want)
				}
			}
		}
	}
}
