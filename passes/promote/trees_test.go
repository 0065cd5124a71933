package promote

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
	"github.com/otir-dev/otir/typing"
)

// TestHLSTrees checks the hls expression-tree rewrites of tree.go.
func TestHLSTrees(t *testing.T) {
	runRewriteCases(t, []rewriteCase{{
		name: "i32 + i32 + i32 + i32 is one balanced tree in i34", style: "hls",
		args: []string{"i32", "i32", "i32", "i32"},
		build: func(k *kb) {
			a := k.args
			k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.bin(otir.OpAdd, a[0], a[1], ""), a[2], ""), a[3], "i34")
		},
		want: `
			%0 = otir.cast %arg0 : i32 -> i34
			%1 = otir.cast %arg1 : i32 -> i34
			%2 = otir.cast %arg2 : i32 -> i34
			%3 = otir.cast %arg3 : i32 -> i34
			%4 = otir.add %0, %1 : i34
			%5 = otir.add %2, %3 : i34
			%6 = otir.add %4, %5 : i34`,
	}, {
		name: "inferred pairwise types: the root keeps its type", style: "hls",
		args: []string{"i32", "i32", "i32", "i32"},
		build: func(k *kb) {
			a := k.args
			k.bin(otir.OpSub, k.bin(otir.OpAdd, k.bin(otir.OpAdd, a[0], a[1], ""), a[2], ""), a[3], "")
		},
		want: `
			%0 = otir.cast %arg0 : i32 -> i34
			%1 = otir.cast %arg1 : i32 -> i34
			%2 = otir.cast %arg2 : i32 -> i34
			%3 = otir.cast %arg3 : i32 -> i34
			%4 = otir.neg %3 : i34
			%5 = otir.add %0, %1 : i34
			%6 = otir.add %2, %4 : i34
			%7 = otir.add %5, %6 : i34
			%8 = otir.cast %7 : i34 -> i35`,
	}, {
		name: "u8 - u8 -> i10: the subtracted term is negated", style: "hls",
		args:  []string{"u8", "u8"},
		build: func(k *kb) { k.bin(otir.OpSub, k.args[0], k.args[1], "") },
		want: `
			%0 = otir.cast %arg0 : u8 -> i10
			%1 = otir.cast %arg1 : u8 -> i10
			%2 = otir.neg %1 : i10
			%3 = otir.add %0, %2 : i10`,
	}, {
		name: "five terms, nested subtraction", style: "hls",
		args: []string{"i8", "u8", "i16", "u4", "i8"},
		build: func(k *kb) {
			a := k.args
			s := k.bin(otir.OpAdd, k.bin(otir.OpSub, a[0], a[1], ""), a[2], "")
			k.bin(otir.OpSub, s, k.bin(otir.OpSub, a[3], a[4], ""), "")
		},
		want: `
			%0 = otir.cast %arg0 : i8 -> i19
			%1 = otir.cast %arg1 : u8 -> i19
			%2 = otir.neg %1 : i19
			%3 = otir.cast %arg2 : i16 -> i19
			%4 = otir.cast %arg3 : u4 -> i19
			%5 = otir.neg %4 : i19
			%6 = otir.cast %arg4 : i8 -> i19
			%7 = otir.add %0, %2 : i19
			%8 = otir.add %3, %5 : i19
			%9 = otir.add %7, %8 : i19
			%10 = otir.add %9, %6 : i19
			%11 = otir.cast %10 : i19 -> i18`,
	}, {
		name: "mul chain u8 * i8 * u4 -> i20", style: "hls",
		args:  []string{"u8", "i8", "u4"},
		build: func(k *kb) { k.bin(otir.OpMul, k.bin(otir.OpMul, k.args[0], k.args[1], ""), k.args[2], "") },
		want: `
			%0 = otir.cast %arg0 : u8 -> i20
			%1 = otir.cast %arg1 : i8 -> i20
			%2 = otir.cast %arg2 : u4 -> i20
			%3 = otir.mul %0, %1 : i20
			%4 = otir.mul %3, %2 : i20`,
	}, {
		name: "(b) a wrapping inner node at least as wide as the root is absorbed", style: "hls",
		args:  []string{"i16", "i16", "i8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], "i16"), k.args[2], "i8") },
		want: `
			%0 = otir.cast %arg0 : i16 -> i18
			%1 = otir.cast %arg1 : i16 -> i18
			%2 = otir.cast %arg2 : i8 -> i18
			%3 = otir.add %0, %1 : i18
			%4 = otir.add %3, %2 : i18
			%5 = otir.cast %4 : i18 -> i8`,
	}, {
		name: "a narrower wrapping inner node stays a term (and is already explicit)", style: "hls",
		args:  []string{"i8", "i8", "i8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], "i8"), k.args[2], "i16") },
		want: `
			%0 = otir.add %arg0, %arg1 : i8
			%1 = otir.cast %0 : i8 -> i9
			%2 = otir.cast %arg2 : i8 -> i9
			%3 = otir.add %1, %2 : i9
			%4 = otir.cast %3 : i9 -> i16`,
	}, {
		name: "(a) a narrower inner node that holds its exact range is absorbed", style: "hls",
		args:  []string{"u4", "u4", "u4"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], "u5"), k.args[2], "u16") },
		want: `
			%0 = otir.cast %arg0 : u4 -> u6
			%1 = otir.cast %arg1 : u4 -> u6
			%2 = otir.cast %arg2 : u4 -> u6
			%3 = otir.add %0, %1 : u6
			%4 = otir.add %3, %2 : u6
			%5 = otir.cast %4 : u6 -> u16`,
	}, {
		name: "(a) an inner sub that holds its exact range is absorbed", style: "hls",
		args:  []string{"u8", "u8", "u8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpSub, k.args[0], k.args[1], "i9"), k.args[2], "i16") },
		want: `
			%0 = otir.cast %arg0 : u8 -> i11
			%1 = otir.cast %arg1 : u8 -> i11
			%2 = otir.neg %1 : i11
			%3 = otir.cast %arg2 : u8 -> i11
			%4 = otir.add %0, %2 : i11
			%5 = otir.add %4, %3 : i11
			%6 = otir.cast %5 : i11 -> i16`,
	}, {
		name: "a value with two uses is a term of both expressions", style: "hls",
		args: []string{"i8", "i8", "i8"},
		build: func(k *kb) {
			s := k.bin(otir.OpAdd, k.args[0], k.args[1], "")
			k.bin(otir.OpSub, k.bin(otir.OpAdd, s, k.args[2], ""), s, "")
		},
		want: `
			%0 = otir.cast %arg0 : i8 -> i9
			%1 = otir.cast %arg1 : i8 -> i9
			%2 = otir.add %0, %1 : i9
			%3 = otir.cast %2 : i9 -> i11
			%4 = otir.cast %arg2 : i8 -> i11
			%5 = otir.neg %3 : i11
			%6 = otir.add %3, %4 : i11
			%7 = otir.add %6, %5 : i11`,
	}, {
		name: "a uniform wrapping chain is already explicit", style: "hls",
		args: []string{"i32", "i32", "i32"},
		build: func(k *kb) {
			k.bin(otir.OpSub, k.bin(otir.OpAdd, k.args[0], k.args[1], "i32"), k.args[2], "i32")
		},
		want: `
			%0 = otir.add %arg0, %arg1 : i32
			%1 = otir.sub %0, %arg2 : i32`,
	}, {
		name: "a float term keeps the written shape", style: "hls",
		args:  []string{"i8", "i8", "f32"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], ""), k.args[2], "") },
		want: `
			%0 = otir.cast %arg0 : i8 -> i9
			%1 = otir.cast %arg1 : i8 -> i9
			%2 = otir.add %0, %1 : i9
			%3 = otir.cast %2 : i9 -> f32
			%4 = otir.add %3, %arg2 : f32`,
	}, {
		name: "an index term keeps the written shape", style: "hls",
		args:  []string{"index", "i8", "i8"},
		build: func(k *kb) { k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], ""), k.args[2], "") },
		want: `
			%0 = otir.cast %arg1 : i8 -> index
			%1 = otir.add %arg0, %0 : index
			%2 = otir.cast %arg2 : i8 -> index
			%3 = otir.add %1, %2 : index`,
	}, {
		name: "tiles and scalars broadcast in the tree", style: "hls",
		args:  []string{"!otir.tile<4x8xi8, #private>", "i8", "!otir.tile<8xu8, #private>"},
		build: func(k *kb) { k.bin(otir.OpSub, k.bin(otir.OpAdd, k.args[0], k.args[1], ""), k.args[2], "") },
		want: `
			%0 = otir.cast %arg0 : !otir.tile<4x8xi8, #private> -> !otir.tile<4x8xi11, #private>
			%1 = otir.cast %arg1 : i8 -> i11
			%2 = otir.cast %arg2 : !otir.tile<8xu8, #private> -> !otir.tile<8xi11, #private>
			%3 = otir.neg %2 : !otir.tile<8xi11, #private>
			%4 = otir.add %0, %1 : (!otir.tile<4x8xi11, #private>, i11) -> !otir.tile<4x8xi11, #private>
			%5 = otir.add %4, %3 : (!otir.tile<4x8xi11, #private>, !otir.tile<8xi11, #private>) -> !otir.tile<4x8xi11, #private>
			%6 = otir.cast %5 : !otir.tile<4x8xi11, #private> -> !otir.tile<4x8xi10, #private>`,
	}})
}

func TestNestedRegions(t *testing.T) {
	k := newKB(t, "hls", "u8", "u8", "u8")
	c0 := otir.ConstInt(k.b, 0, ir.Index())
	c4 := otir.ConstInt(k.b, 4, ir.Index())
	c1 := otir.ConstInt(k.b, 1, ir.Index())
	_, body := scf.For(k.b, c0, c4, c1)
	outer := k.b
	k.b = ir.NewBuilder(body)
	k.bin(otir.OpAdd, k.bin(otir.OpAdd, k.args[0], k.args[1], ""), k.args[2], "")
	scf.Yield(k.b)
	k.b = outer
	otir.Return(k.b)
	if err := k.run(); err != nil {
		t.Fatal(err)
	}
	want := dedent(`
		%0 = otir.cast %arg0 : u8 -> u10
		%1 = otir.cast %arg1 : u8 -> u10
		%2 = otir.cast %arg2 : u8 -> u10
		%3 = otir.add %0, %1 : u10`)
	if got := k.kernelText(); !strings.Contains(got, want) {
		t.Errorf("the loop body was not rewritten:\n%s", k.m.String())
	}
}

// An expression does not reach into another block: a node defined outside a
// loop and used once inside it stays where it is, a term of the loop's tree
// (here the outer i32 add is explicit, and wide enough to be absorbed were it
// in the same block).
func TestTreesStayInTheirBlock(t *testing.T) {
	k := newKB(t, "hls", "i32", "i32", "i32")
	outside := k.bin(otir.OpAdd, k.args[0], k.args[1], "i32")
	c0 := otir.ConstInt(k.b, 0, ir.Index())
	c1 := otir.ConstInt(k.b, 1, ir.Index())
	_, body := scf.For(k.b, c0, c1, c1)
	outer := k.b
	k.b = ir.NewBuilder(body)
	inside := k.bin(otir.OpAdd, outside, k.args[2], "i8")
	scf.Yield(k.b)
	k.b = outer
	otir.Return(k.b)
	if err := k.run(); err != nil {
		t.Fatal(err)
	}
	if outside.Def.Block != k.args[0].Block || outside.Def.Name != otir.OpAdd {
		t.Fatalf("the outer add moved or changed:\n%s", k.m.String())
	}
	sum := inside.Def.Operands[0].Def // inside = cast(add(cast outside, cast arg2))
	if inside.Def.Name != otir.OpCast || sum.Block != body || sum.Operands[0].Def.Operands[0] != outside {
		t.Fatalf("the loop's tree should add the outer sum as a term:\n%s", k.m.String())
	}
}

// Only well-formed operations join a tree: an ill-shaped inner node stays a
// term (the verifier reports it), so no tree mixes shapes that do not
// broadcast.
func TestIllShapedNodeStaysATerm(t *testing.T) {
	k := newKB(t, "hls", "!otir.tile<4xi8, #private>", "!otir.tile<4xi8, #private>", "!otir.tile<8xi8, #private>")
	bad := k.bin(otir.OpAdd, k.args[0], k.args[1], "!otir.tile<8xi9, #private>")
	root := k.bin(otir.OpAdd, bad, k.args[2], "")
	otir.Return(k.b)
	if err := k.run(); err != nil {
		t.Fatal(err)
	}
	if bad.Def.Name != otir.OpAdd || bad.Def.Operands[0] != k.args[0] {
		t.Fatalf("the ill-shaped add changed:\n%s", k.m.String())
	}
	if root.Def.Name != otir.OpAdd || root.Def.Operands[0].Def.Operands[0] != bad {
		t.Fatalf("the root should add the ill-shaped value as a term:\n%s", k.m.String())
	}
}

// TestUniformChainIsLinear: a chain of uniform adds in a wide type is left
// to the pairwise path once, not planned again from each of its nodes (that
// was quadratic, each step doing exact range arithmetic in the type's
// width: 100 adds of i8000000 took 29 s). The chain's ops must come out
// unchanged, and planning must visit each node once.
func TestUniformChainIsLinear(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("otir.kernel @k(%x: i4000000, %y: i4000000) {\n")
	prev := "%x"
	const n = 200
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "  %%v%d = otir.add %s, %%y : i4000000\n", i, prev)
		prev = fmt.Sprintf("%%v%d", i)
	}
	sb.WriteString("  otir.return\n}\n")
	m, err := parse.ParseString("chain.otir", sb.String(), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	visits := 0
	onNode = func() { visits++ }
	defer func() { onNode = nil }()
	if err := Run(m, typing.HLS); err != nil {
		t.Fatal(err)
	}
	if visits != n {
		t.Fatalf("planning visited %d nodes of a %d-op uniform chain, want each once", visits, n)
	}
	adds := 0
	m.Walk(func(op *ir.Operation) bool {
		if op.Name == "otir.add" {
			adds++
		}
		return true
	})
	if adds != n {
		t.Fatalf("the uniform chain has %d adds after promote-types, want %d unchanged", adds, n)
	}
}
