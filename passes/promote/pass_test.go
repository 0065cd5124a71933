package promote

import (
	"errors"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/typing"
)

// rewriteCase builds a kernel, runs the pass and compares the kernel's body.
type rewriteCase struct {
	name  string
	style string
	args  []string
	build func(k *kb)
	want  string
}

func runRewriteCases(t *testing.T, cases []rewriteCase) {
	t.Helper()
	for _, tc := range cases {
		k := newKB(t, tc.style, tc.args...)
		tc.build(k)
		otir.Return(k.b)
		if err := k.run(); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got, want := k.kernelText(), strings.TrimSpace(dedent(tc.want)); got != want {
			t.Errorf("%s: got\n%s\nwant\n%s", tc.name, got, want)
		}
	}
}

func dedent(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, "\n")
}

func TestPairwiseRewrites(t *testing.T) {
	runRewriteCases(t, []rewriteCase{{
		name: "cpp u32 + i32 -> u32", style: "cpp", args: []string{"u32", "i32"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.args[0], k.args[1], "") },
		want: `
			%0 = otir.cast %arg1 : i32 -> u32
			%1 = otir.add %arg0, %0 : u32`,
	}, {
		name: "cpp chains stay pairwise", style: "cpp", args: []string{"i8", "i16", "i32"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], ""), k.args[2], "") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i16
			%1 = otir.add %0, %arg1 : i16
			%2 = otir.cast %1 : i16 -> i32
			%3 = otir.add %2, %arg2 : i32`,
	}, {
		name: "cpp explicit wider result: compute in the result type", style: "cpp", args: []string{"i8", "i8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.args[0], k.args[1], "i16") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i16
			%1 = otir.cast %arg1 : i8 -> i16
			%2 = otir.add %0, %1 : i16`,
	}, {
		name: "comparison: common type when it holds both", style: "hls", args: []string{"i8", "i16"},
		build: func(k *kb) { k.cmp("slt", k.args[0], k.args[1]) },
		want: `
			%0 = otir.cast %arg0 : i8 -> i16
			%1 = otir.cmp kind(slt) %0, %arg1 : (i16, i16) -> i1`,
	}, {
		name: "eq of i32 and u32: u32 would misread negatives, i33 holds both", style: "cpp", args: []string{"i32", "u32"},
		build: func(k *kb) { k.cmp("eq", k.args[0], k.args[1]) },
		want: `
			%0 = otir.cast %arg0 : i32 -> i33
			%1 = otir.cast %arg1 : u32 -> i33
			%2 = otir.cmp kind(eq) %0, %1 : (i33, i33) -> i1`,
	}, {
		name: "ult of i32 and u32 reads bits: u32 keeps them", style: "cpp", args: []string{"i32", "u32"},
		build: func(k *kb) { k.cmp("ult", k.args[0], k.args[1]) },
		want: `
			%0 = otir.cast %arg0 : i32 -> u32
			%1 = otir.cmp kind(ult) %0, %arg1 : (u32, u32) -> i1`,
	}, {
		name: "comparison of float and integer", style: "hls", args: []string{"f32", "i16"},
		build: func(k *kb) { k.cmp("olt", k.args[0], k.args[1]) },
		want: `
			%0 = otir.cast %arg1 : i16 -> f32
			%1 = otir.cmp kind(olt) %arg0, %0 : (f32, f32) -> i1`,
	}, {
		name: "shifts keep the left type and the amount", style: "hls", args: []string{"u8", "i32", "i4"},
		build: func(k *kb) {
			k.bin(otir.OpShl, k.args[0], k.args[1], "")
			k.bin(otir.OpShrS, k.args[2], k.args[0], "i16")
		},
		want: `
			%0 = otir.shl %arg0, %arg1 : (u8, i32) -> u8
			%1 = otir.shr_s %arg2, %arg0 : (i4, u8) -> i4
			%2 = otir.cast %1 : i4 -> i16`,
	}, {
		name: "div_s of i8 and u8 reads 8-bit signed numbers: u8 keeps the bits", style: "hls", args: []string{"i8", "u8"},
		build: func(k *kb) { k.bin(otir.OpDivS, k.args[0], k.args[1], "") },
		want: `
			%0 = otir.cast %arg0 : i8 -> u8
			%1 = otir.div_s %0, %arg1 : u8`,
	}, {
		name: "div_s with an explicit wider result computes in it", style: "hls", args: []string{"i8", "i8"},
		build: func(k *kb) { k.bin(otir.OpDivS, k.args[0], k.args[1], "i16") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i16
			%1 = otir.cast %arg1 : i8 -> i16
			%2 = otir.div_s %0, %1 : i16`,
	}, {
		name: "max of i8 and u8 reads values: u8 would misread -1, i9 holds both", style: "hls", args: []string{"i8", "u8"},
		build: func(k *kb) { k.bin(otir.OpMax, k.args[0], k.args[1], "") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i9
			%1 = otir.cast %arg1 : u8 -> i9
			%2 = otir.max %0, %1 : i9
			%3 = otir.cast %2 : i9 -> u8`,
	}, {
		name: "div_u of i8 and u16: no type keeps i8's 8-bit unsigned reading and u16's: left as written", style: "cpp",
		args:  []string{"i8", "u16"},
		build: func(k *kb) { k.bin(otir.OpDivU, k.args[0], k.args[1], "") },
		want: `
			%0 = otir.div_u %arg0, %arg1 : (i8, u16) -> u16`,
	}, {
		name: "hls neg grows; an explicit wrapping neg is left alone", style: "hls", args: []string{"u8"},
		build: func(k *kb) {
			k.un(otir.OpNeg, k.args[0], "")
			k.un(otir.OpNeg, k.args[0], "u8")
		},
		want: `
			%0 = otir.cast %arg0 : u8 -> i9
			%1 = otir.neg %0 : i9
			%2 = otir.neg %arg0 : u8`,
	}, {
		// The executor rounds an integer operand to the computation format
		// first, so converting i32 to f32 explicitly keeps the value.
		name: "special functions", style: "hls", args: []string{"i8", "i32"},
		build: func(k *kb) {
			k.un(otir.OpExp, k.args[0], "")
			k.un(otir.OpSqrt, k.args[1], "")
			k.un(otir.OpLog, k.args[1], "i32") // computes in f64: left as written
		},
		want: `
			%0 = otir.cast %arg0 : i8 -> f32
			%1 = otir.exp %0 : f32
			%2 = otir.cast %arg1 : i32 -> f32
			%3 = otir.sqrt %2 : f32
			%4 = otir.log %arg1 : i32`,
	}, {
		// f16 op bf16: the left wins, but bf16 is not exact in f16. The
		// written add computes in f32 and rounds to f16: so does the rewrite.
		// max's value is an operand: computed in f32, which holds both.
		name: "f16 and bf16", style: "hls",
		args: []string{"f16", "bf16"},
		build: func(k *kb) {
			k.bin(otir.OpAdd, k.args[0], k.args[1], "")
			k.bin(otir.OpMax, k.args[1], k.args[0], "")
		},
		want: `
			%0 = otir.cast %arg0 : f16 -> f32
			%1 = otir.cast %arg1 : bf16 -> f32
			%2 = otir.add %0, %1 : f32
			%3 = otir.cast %2 : f32 -> f16
			%4 = otir.cast %arg1 : bf16 -> f32
			%5 = otir.cast %arg0 : f16 -> f32
			%6 = otir.max %4, %5 : f32
			%7 = otir.cast %6 : f32 -> bf16`,
	}, {
		name: "f32 op f32 written to f16 computes in f32 (and f16 op f16 stays)", style: "cpp",
		args: []string{"f32", "f32", "f16"},
		build: func(k *kb) {
			k.bin(otir.OpMul, k.args[0], k.args[1], "f16")
			k.bin(otir.OpAdd, k.args[2], k.args[2], "")
		},
		want: `
			%0 = otir.mul %arg0, %arg1 : f32
			%1 = otir.cast %0 : f32 -> f16
			%2 = otir.add %arg2, %arg2 : f16`,
	}, {
		name: "an operand used twice is cast once", style: "cpp", args: []string{"i8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.args[0], k.args[0], "i16") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i16
			%1 = otir.add %0, %0 : i16`,
	}, {
		name: "bitwise and max with mixed signs", style: "cpp", args: []string{"i8", "u8"},
		build: func(k *kb) {
			k.bin(otir.OpAnd, k.args[0], k.args[1], "")
			k.bin(otir.OpMax, k.args[0], k.args[1], "")
		},
		want: `
			%0 = otir.cast %arg0 : i8 -> u8
			%1 = otir.and %0, %arg1 : u8
			%2 = otir.cast %arg0 : i8 -> i9
			%3 = otir.cast %arg1 : u8 -> i9
			%4 = otir.max %2, %3 : i9
			%5 = otir.cast %4 : i9 -> u8`,
	}})
}

func TestNoRuleDiagnostics(t *testing.T) {
	k := newKB(t, "hls", "index", "f32", "i8")
	k.bin(otir.OpAdd, k.args[0], k.args[1], "f32")        // line 2
	k.un(otir.OpAbs, k.args[0], "index")                  // line 3
	k.bin(otir.OpAdd, k.args[2], k.args[2], "")           // line 4: fine
	k.b.Loc = k.loc()                                     // line 5
	otir.Cmp(k.b, "olt", k.args[1], k.args[0], ir.Bool()) // no rule
	otir.Return(k.b)
	before := k.m.String()
	err := k.run()
	var l diag.List
	if !errors.As(err, &l) {
		t.Fatalf("want a diag.List, got %v", err)
	}
	want := []string{
		"test.otir:2:3: error: No hls type promotion rule for operator 'add' with operand types index, float32",
		"test.otir:3:3: error: No hls type promotion rule for operator 'abs' with operand type index",
		"test.otir:5:3: error: No hls type promotion rule for operator 'lt' with operand types float32, index",
	}
	if len(l) != len(want) {
		t.Fatalf("got %d diagnostics, want %d: %v", len(l), len(want), l)
	}
	for i, d := range l {
		if d.Error() != want[i] {
			t.Errorf("diagnostic %d: %s, want %s", i, d.Error(), want[i])
		}
	}
	if after := k.m.String(); after != before {
		t.Errorf("a failing pass must leave the module unchanged:\n%s", after)
	}
}

func TestCPPNoRuleDiagnostic(t *testing.T) {
	k := newKB(t, "cpp", "index", "bf16")
	k.bin(otir.OpMul, k.args[1], k.args[0], "bf16")
	otir.Return(k.b)
	err := k.run()
	if err == nil || !strings.Contains(err.Error(), "No cpp type promotion rule for operator 'mul' with operand types bfloat16, index") {
		t.Fatalf("got %v", err)
	}
}

func TestRegisteredPass(t *testing.T) {
	info := passes.Lookup(PassName)
	if info == nil {
		t.Fatalf("%s is not registered", PassName)
	}
	if opts := info.Options(); len(opts) != 1 || opts[0].Name != "style" || opts[0].Default != "" {
		t.Fatalf("unexpected options %+v", opts)
	}
	build := func(style string) (*kb, *ir.Value) {
		k := newKB(t, style, "u8", "u8")
		// hls negates the subtracted term and adds; cpp subtracts in i10.
		v := k.bin(otir.OpSub, k.args[0], k.args[1], "i10")
		otir.Return(k.b)
		return k, v
	}
	tests := []struct {
		moduleStyle, option string
		hls                 bool
	}{
		{"", "", true},        // no style anywhere: hls
		{"hls", "", true},     // the module's style
		{"cpp", "", false},    // the module's style
		{"cpp", "hls", true},  // the option wins
		{"hls", "cpp", false}, // the option wins
		{"cpp", "cpp", false},
	}
	for _, tc := range tests {
		k, v := build(tc.moduleStyle)
		p, err := newPass(&Options{Style: tc.option}, passes.NewContext())
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Run(k.m); err != nil {
			t.Fatal(err)
		}
		if got := v.Def.Name == otir.OpAdd; got != tc.hls {
			t.Errorf("module style %q, option %q: rewritten=%v\n%s", tc.moduleStyle, tc.option, got, k.m.String())
		}
	}
	if _, err := passes.Spec(PassName, map[string]string{"style": "verilog"}); err == nil || !strings.Contains(err.Error(), "invalid value 'verilog' for option 'style' of pass 'promote-types' (expected one of: hls, cpp)") {
		t.Errorf("bad option: got %v", err)
	}
	k, _ := build("fortran")
	p, _ := newPass(&Options{}, passes.NewContext())
	if err := p.Run(k.m); err == nil || !strings.Contains(err.Error(), "unknown typing style 'fortran'") {
		t.Errorf("bad module style: got %v", err)
	}
	if err := Run(k.m, typing.Style("x")); err == nil {
		t.Errorf("Run with an unknown style must fail")
	}
}

// Invalid IR (a result type without the operands' broadcast shape) is the
// verifier's to report; the pass leaves it alone.
func TestNoTreeForMismatchedShapes(t *testing.T) {
	k := newKB(t, "hls", "!otir.tile<4xi8, #private>", "!otir.tile<4xi8, #private>")
	s := k.bin(otir.OpAdd, k.args[0], k.args[1], "!otir.tile<8xi9, #private>")
	otir.Return(k.b)
	if err := k.run(); err != nil {
		t.Fatal(err)
	}
	if s.Def.Name != otir.OpAdd || s.Def.Operands[0] != k.args[0] {
		t.Fatalf("unexpected rewrite:\n%s", k.m.String())
	}
}

func TestRunOnEmptyModules(t *testing.T) {
	for _, m := range []*ir.Module{nil, {}, {Op: ir.NewOp(ir.OpModule, ir.Location{}, nil, nil, nil)}, ir.NewModule(ir.Location{})} {
		if err := Run(m, typing.HLS); err != nil {
			t.Errorf("Run(%v): %v", m, err)
		}
	}
}

// Malformed IR (the verifier's to report) never makes the pass panic.
func TestMalformedIR(t *testing.T) {
	k := newKB(t, "hls", "i8", "u8")
	body := k.args[0].Block
	body.Ops = append(body.Ops, nil)
	k.b.Create(otir.OpAdd, []*ir.Value{k.args[0]}, []ir.Type{ir.Int(9, true)}, nil)             // one operand
	k.b.Create(otir.OpAdd, []*ir.Value{k.args[0], nil}, []ir.Type{ir.Int(9, true)}, nil)        // nil operand
	k.b.Create(otir.OpAdd, []*ir.Value{k.args[0], k.args[1]}, nil, nil)                         // no result
	k.b.Create(otir.OpAdd, []*ir.Value{k.args[0], k.args[1]}, []ir.Type{nil}, nil)              // nil result type
	k.b.Create(otir.OpNeg, []*ir.Value{{Type: nil}}, []ir.Type{ir.Int(9, true)}, nil)           // nil operand type
	k.b.Create(otir.OpCmp, []*ir.Value{k.args[0], k.args[1]}, []ir.Type{ir.Bool()}, nil)        // no predicate
	k.b.Create(otir.OpAdd, []*ir.Value{k.args[0], k.args[1]}, []ir.Type{ir.Token()}, nil)       // token result
	k.b.Create(otir.OpMul, []*ir.Value{k.args[0], k.args[1]}, []ir.Type{ir.Int(16, true)}, nil) // fine
	op := k.b.Create(scf.OpIf, nil, nil, nil)
	op.Regions = []*ir.Region{nil, {Blocks: []*ir.Block{nil}}}
	otir.Return(k.b)
	if err := k.run(); err != nil {
		t.Fatalf("malformed IR: %v", err)
	}
}
