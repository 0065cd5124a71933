package parse

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// TestImplicitModule checks that bare kernels (and comments) go into an
// implicit module, and that an empty file is an empty module.
func TestImplicitModule(t *testing.T) {
	src := "// two kernels, no wrapper\notir.kernel @a() {\n  otir.return // done\n}\n\n// -----\notir.kernel @b() attributes {grid = [2, 2]} {\n  otir.return\n}\n"
	m := mustParse(t, src, Options{})
	ks := otir.Kernels(m)
	if len(ks) != 2 || ir.KernelName(ks[0]) != "a" || ir.KernelName(ks[1]) != "b" {
		t.Fatalf("kernels %v", ks)
	}
	if g := ir.KernelGrid(ks[1]); len(g) != 2 || g[0] != 2 {
		t.Fatalf("grid %v", g)
	}
	if m.Op.Loc != (ir.Location{File: "test.otir", Line: 1, Col: 1}) || otir.TypingStyle(m) != "hls" {
		t.Fatalf("module %v %s", m.Op.Loc, otir.TypingStyle(m))
	}
	empty := mustParse(t, "  // nothing\n", Options{})
	if len(empty.Body().Ops) != 0 {
		t.Fatal("empty file has operations")
	}
	// Two modules are two operations of an implicit module.
	two := mustParse(t, "module {\n}\nmodule {\n}\n", Options{})
	if len(two.Body().Ops) != 2 || two.Body().Ops[1].Name != ir.OpModule {
		t.Fatalf("got %v", two.Body().Ops)
	}
}

// TestNamesAndLocations checks that values keep their source names as hints
// and their definition locations, and that operations are located at their
// first token.
func TestNamesAndLocations(t *testing.T) {
	src := "otir.kernel @k(%a: i8,\n               %acc: i8) {\n  %pid = otir.program_id axis(0)\n    otir.barrier\n  %s, %t = \"otir.max\"(%a, %a) : (i8, i8) -> i8\n  otir.return\n}\n"
	if _, err := Parse("n.otir", []byte(src), Options{}); err == nil || err.Error() != "n.otir:5:3: error: operation defines 1 results but was provided 2 to bind" {
		t.Fatalf("got %v", err)
	}
	src = "otir.kernel @k(%a: i8,\n               %acc: i8) {\n  %pid = otir.program_id axis(0)\n    otir.barrier\n  %s:2 = \"scf.if\"(%t) ({\n    \"scf.yield\"(%a, %acc) : (i8, i8) -> ()\n  }, {\n    \"scf.yield\"(%acc, %a) : (i8, i8) -> ()\n  }) : (i1) -> (i8, i8)\n  %t = otir.cmp kind(eq) %s#1, %s : i8\n  otir.return\n}\n"
	m := mustParse(t, src, Options{})
	k := otir.Kernels(m)[0]
	args := k.Body(0).Args
	if args[0].Name != "a" || args[1].Name != "acc" || args[1].Loc != (ir.Location{File: "test.otir", Line: 2, Col: 16}) {
		t.Fatalf("args %+v %+v", *args[0], *args[1])
	}
	ops := k.Body(0).Ops
	if ops[0].Results[0].Name != "pid" || ops[0].Loc.Line != 3 || ops[0].Loc.Col != 3 {
		t.Fatalf("pid %+v at %v", *ops[0].Results[0], ops[0].Loc)
	}
	if ops[1].Loc != (ir.Location{File: "test.otir", Line: 4, Col: 5}) {
		t.Fatalf("barrier at %v", ops[1].Loc)
	}
	// %t is used before its definition (a forward reference); %s#1 and %s
	// are the if's two results.
	ifOp, cmp := ops[2], ops[3]
	if ifOp.Operands[0] != cmp.Results[0] || cmp.Operands[0] != ifOp.Results[1] || cmp.Operands[1] != ifOp.Results[0] {
		t.Fatal("operands bound to the wrong values")
	}
	if ifOp.Results[1].Name != "s" || ifOp.Results[1].Loc.Line != 5 {
		t.Fatalf("result %+v", *ifOp.Results[1])
	}
}

// TestScopes checks MLIR's scoping: a region sees the names of enclosing
// regions, even ones defined later (forward references); its own names end
// with it; a name may be redefined after the region that held it.
func TestScopes(t *testing.T) {
	src := `otir.kernel @k(%c: i1, %a: i8) {
  scf.if %c {
    %x = otir.add %later, %a : i8
  }
  scf.if %c {
    %x = otir.add %a, %a : i8
  }
  %later = otir.add %a, %a : i8
  %x = otir.add %later, %later : i8
  otir.return
}
`
	m := mustParse(t, src, Options{})
	ops := otir.Kernels(m)[0].Body(0).Ops
	inner := ops[0].Body(0).Ops[0]
	if inner.Operands[0] != ops[2].Results[0] {
		t.Fatal("forward reference from a nested region not bound")
	}
}

// TestImplicitYield checks that pretty scf regions get an operand-less
// scf.yield when they do not end with one, as MLIR's parser does.
func TestImplicitYield(t *testing.T) {
	src := "otir.kernel @k(%c: i1, %i: index) {\n  scf.if %c {\n  } else {\n    otir.barrier\n  }\n  scf.for %j = %i to %i step %i {\n    scf.yield\n  }\n  otir.return\n}\n"
	m := mustParse(t, src, Options{})
	ops := otir.Kernels(m)[0].Body(0).Ops
	for _, b := range []*ir.Block{ops[0].Body(0), ops[0].Body(1), ops[1].Body(0)} {
		if term := b.Terminator(); term == nil || term.Name != scf.OpYield || len(term.Operands) != 0 {
			t.Fatalf("block ends with %v", term)
		}
	}
	if n := len(ops[1].Body(0).Ops); n != 1 {
		t.Fatalf("explicit yield duplicated: %d ops", n)
	}
}

// TestDMAMaskSpellings checks that the spec's `, [%mask]` spelling of the
// optional mask parses like `, %mask`.
func TestDMAMaskSpellings(t *testing.T) {
	decl := "%s: " + g16 + ", %d: " + w16 + ", %m: " + m16
	sig := " : (" + g16 + ", " + w16 + ", [" + m16 + "]) -> !otir.token"
	a := mustParse(t, "otir.kernel @k("+decl+") {\n  %t = otir.dma_copy_async %s, %d, [%m]"+sig+"\n  otir.return\n}\n", Options{})
	b := mustParse(t, "otir.kernel @k("+decl+") {\n  %t = otir.dma_copy_async %s, %d, %m"+strings.Replace(sig, "["+m16+"]", m16, 1)+"\n  otir.return\n}\n", Options{})
	if printed(t, a, true) != printed(t, b, true) {
		t.Fatalf("spellings differ:\n%s\n%s", printed(t, a, true), printed(t, b, true))
	}
}

// TestParallelAgrees parses large blocks, in chunks and in parallel, and
// checks the result against a sequential parse.
func TestParallelAgrees(t *testing.T) {
	chain := string(GenerateChain(3000))
	// A large block nested in a loop, and a loop nested in the large block.
	nested := strings.Replace(chain, "    %x = otir.load", "    %c0 = otir.constant 0 : index\n    scf.for %i = %c0 to %c0 step %c0 {\n    %x = otir.load", 1)
	nested = strings.Replace(nested, "    otir.return", "    scf.for %j = %c0 to %c0 step %c0 {\n      otir.barrier\n    }\n    }\n    otir.return", 1)
	for _, src := range []string{chain, nested} {
		want := printed(t, mustParse(t, src, Options{Workers: 1, noStream: true}), true)
		for _, opts := range []Options{{Workers: 2, MinChunkTokens: 100, noStream: true}, {Workers: 7, MinChunkTokens: 10, noStream: true}, {Workers: 3, noFastPath: true, MinChunkTokens: 200, noStream: true}, {Workers: 2, MinChunkBytes: 500}, {Workers: 3, MinChunkBytes: 1, MinChunkTokens: 10}} {
			if got := printed(t, mustParse(t, src, opts), true); got != want {
				t.Fatalf("parallel parse %+v differs", opts)
			}
		}
	}
}

// TestModuleWithoutBody checks that a generic builtin.module without a body
// becomes an operation of an implicit module (ir.Module needs a block).
func TestModuleWithoutBody(t *testing.T) {
	for _, src := range []string{`"builtin.module"() : () -> ()`, `"builtin.module"() ({}, {}) : () -> ()`} {
		m := mustParse(t, src, Options{})
		if m.Body() == nil || len(m.Body().Ops) != 1 || m.Body().Ops[0].Name != ir.OpModule {
			t.Fatalf("%s: got %v", src, m.Body())
		}
		_ = otir.Kernels(m)
	}
	// An empty module region is an empty body block.
	m := mustParse(t, `"builtin.module"() ({}) {a} : () -> ()`, Options{})
	if m.Body() == nil || len(m.Body().Ops) != 0 || m.Op.Attr("a") == nil {
		t.Fatalf("got %v", m.Body())
	}
}

// TestChunkAfterYield checks a cut right after a bare scf.yield: the grammar
// reads the next line's result name as the yield's operand (an error), and
// the parallel parse must say so too.
func TestChunkAfterYield(t *testing.T) {
	src := "otir.kernel @k() {\n" + strings.Repeat("  otir.barrier\n", 6) + "  scf.yield\n  %x = otir.constant 1 : i8\n  otir.return\n}\n"
	for _, opts := range []Options{{Workers: 1}, {Workers: 2, MinChunkTokens: 1}, {Workers: 2, MinChunkBytes: 1}} {
		if _, err := Parse("y.otir", []byte(src), opts); err == nil || err.Error() != "y.otir:9:6: error: expected ':'" {
			t.Fatalf("%+v: got %v", opts, err)
		}
	}
}

// TestStrings checks string escapes: Go's (what the printer writes) and
// MLIR's two-hex-digit form, and that any string survives a round trip.
func TestStrings(t *testing.T) {
	cases := []struct{ lit, want string }{
		{`"plain"`, "plain"},
		{`"q\"b\\s"`, "q\"b\\s"},
		{`"\n\t\r\a\b\f\v\'"`, "\n\t\r\a\b\f\v'"},
		{`"\x41\u00e9\U0001F600"`, "A\u00e9\U0001F600"},
		{`"\0A\FF\42\ff"`, "\n\xffB\ff"}, // \f is Go's form feed
	}
	for _, c := range cases {
		m := mustParse(t, "module attributes {s = "+c.lit+"} {\n}\n", Options{})
		s, _ := m.Op.StringAttr("s")
		if s != c.want {
			t.Errorf("%s: got %q, want %q", c.lit, s, c.want)
		}
		again := mustParse(t, printed(t, m, false), Options{})
		if s2, _ := again.Op.StringAttr("s"); s2 != c.want {
			t.Errorf("%s: round trip gives %q", c.lit, s2)
		}
	}
}

// TestGuard checks that a panic in a parse goroutine becomes an error.
func TestGuard(t *testing.T) {
	err := guard(func() error { panic("boom") })
	if err == nil || err.Error() != "internal parser error: boom" {
		t.Fatalf("got %v", err)
	}
	if err := guard(func() error { return nil }); err != nil {
		t.Fatal(err)
	}
}

// TestSignatureSpellings checks that a function type is the same whether the
// lexer reads it as one token (after ':' on one line) or token by token.
func TestSignatureSpellings(t *testing.T) {
	one := "otir.kernel @k(%a: i8, %b: " + p16 + ") {\n  %0 = otir.add %a, %b : (i8, " + p16 + ") -> " + p16b + "\n  %1 = \"otir.max\"(%a, %a) : (i8, i8) -> (i8)\n  otir.return\n}\n"
	split := strings.Replace(strings.Replace(one, "(i8, "+p16+")", "(i8,\n    "+p16+")", 1), ": (i8, i8)", ":\n (i8, i8)", 1)
	toks, err := tokenize(one, 0)
	if err != nil {
		t.Fatal(err)
	}
	sigs := 0
	for _, tk := range toks {
		if tk.Type == tokSig {
			sigs++
		}
	}
	if sigs != 2 {
		t.Fatalf("%d signature tokens in %s", sigs, one)
	}
	a, b := mustParse(t, one, Options{}), mustParse(t, split, Options{})
	if printed(t, a, true) != printed(t, b, true) {
		t.Fatalf("spellings differ:\n%s\n%s", printed(t, a, true), printed(t, b, true))
	}
}
