package parse

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes/verify"
)

// TestBlockArgLocations checks that a block argument's loc(...) becomes its
// location, in a kernel's signature and in a generic block header, and that
// an argument without one is located at its name.
func TestBlockArgLocations(t *testing.T) {
	src := `otir.kernel @k(%a: i8 loc("a.mlir":3:4), %b: i8, %c: i8 loc(#r)) {
  "test.op"() ({
  ^bb0(%i: index loc(callsite("x.mlir":1:2 at "y.mlir":3:4))):
    "test.end"() : () -> ()
  }) : () -> ()
  otir.return
}
#r = loc("r.mlir":1:2 to :5)
`
	m := mustParse(t, src, Options{AllowUnregistered: true})
	k := otir.Kernels(m)[0]
	args := k.Regions[0].Blocks[0].Args
	want := []string{`loc("a.mlir":3:4)`, `loc("test.otir":1:42)`, `loc("r.mlir":1:2 to :5)`}
	for i, a := range args {
		if got := ir.LocText(a.Loc); got != want[i] {
			t.Errorf("argument #%d: %s, want %s", i, got, want[i])
		}
	}
	inner := k.Regions[0].Blocks[0].Ops[0].Regions[0].Blocks[0].Args[0]
	if got := ir.LocText(inner.Loc); got != `loc(callsite("x.mlir":1:2 at "y.mlir":3:4))` {
		t.Errorf("inner argument: %s", got)
	}
}

// TestBlockArgLocationInDiagnostic checks that a diagnostic about a block
// argument (the verifier's note on an operand that is a block argument out
// of scope) is shown at the argument's location, with mlir-opt's rules.
func TestBlockArgLocationInDiagnostic(t *testing.T) {
	src := `otir.kernel @k() {
  "test.op"() ({
  ^bb0(%i: index loc(callsite("callee.mlir":2:3 at "caller.mlir":10:5))):
    "test.end"() : () -> ()
  }) : () -> ()
  %a = otir.constant 1 : index
  %b = otir.add %a, %a : index
  otir.return
}
`
	m := mustParse(t, src, Options{AllowUnregistered: true})
	body := otir.Kernels(m)[0].Regions[0].Blocks[0]
	arg := body.Ops[0].Regions[0].Blocks[0].Args[0]
	body.Ops[2].Operands[0] = arg // out of the argument's scope
	ds := verify.Verify(m)
	if len(ds) != 1 {
		t.Fatalf("diagnostics: %v", ds)
	}
	sm := diag.NewSourceMgr()
	sm.Add("test.otir", src)
	var sb strings.Builder
	sm.RenderAll(&sb, ds)
	got := sb.String()
	if !strings.Contains(got, "\ncallee.mlir:2:3: note: operand defined as a block argument") {
		t.Errorf("the note is not at the argument's location:\n%s", got)
	}
}

// TestLocationForms checks how locations read back: ranges, a line without
// a column, and fused locations simplified as MLIR's FusedLoc::get.
func TestLocationForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"f":1:2 to 3:4`, `"f":1:2 to 3:4`},
		{`"f":1:2 to 1:4`, `"f":1:2 to :4`},
		{`"f":1:2 to :4`, `"f":1:2 to :4`},
		{`"f":1:2 to 1:2`, `"f":1:2`},
		{`"f":7`, `"f":7:0`},
		{`"f":0:0`, `"f":0:0`},
		{`fused["a":1:1, unknown]`, `"a":1:1`},
		{`fused[unknown]`, `unknown`},
		{`fused<"m">[]`, `fused<"m">[unknown]`},
		{`fused["a":1:1, fused["b":2:2, "a":1:1], fused<"m">["c":1:1]]`, `fused["a":1:1, "b":2:2, fused<"m">["c":1:1]]`},
		{`callsite("a":1:1 to 2:2 at "n"("b":1:1))`, `callsite("a":1:1 to 2:2 at "n"("b":1:1))`},
	} {
		src := "otir.kernel @k() {\n  otir.return loc(" + c.in + ")\n}\n"
		m := mustParse(t, src, Options{})
		ret := otir.Kernels(m)[0].Regions[0].Blocks[0].Ops[0]
		if got := ir.LocText(ret.Loc); got != "loc("+c.want+")" {
			t.Errorf("loc(%s) reads as %s, want loc(%s)", c.in, got, c.want)
		}
	}
}

// TestLocationErrors checks malformed locations' messages and columns,
// which are mlir-opt's (right after the token before the offending one).
func TestLocationErrors(t *testing.T) {
	for _, c := range []struct{ loc, want string }{
		{`"f":1:2 to`, `2:29: error: expected either integer or ` + "`:`" + ` post ` + "`to`" + ` in FileLineColRange`},
		{`"f":1:`, `2:25: error: expected integer column number in FileLineColRange`},
		{`"f":x`, `2:23: error: expected integer line number in FileLineColRange`},
		{`"f":1 to 3`, `2:24: error: expected ')' in location`},
		{`callsite("f" xx "g")`, `2:31: error: expected 'at' in callsite location`},
		{`#nope`, `2:19: error: operation location alias was never defined`},
		{`callsite(#nope at "a":1:1)`, `2:33: error: undefined symbol alias id 'nope'`},
		{`bogus`, `2:19: error: expected location instance`},
	} {
		src := "otir.kernel @k() {\n  otir.return loc(" + c.loc + ")\n}\n"
		_, err := Parse("test.otir", []byte(src), Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("loc(%s): %v, want %s", c.loc, err, c.want)
		}
	}
}
