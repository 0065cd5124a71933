package verify

import (
	"math/rand"
	"runtime"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/dialect/scf"
	"github.com/otir-dev/otir/ir"
)

// nested builds a kernel of about n index ops whose body holds scf.for and
// scf.if ops nested up to three deep. Each op uses values from its scope,
// often far back (so uses cross the ranges a parallel walk splits a block
// into). It records every op and block so tests can break them.
type nested struct {
	r      *rand.Rand
	e      *env
	adds   []*ir.Operation // the otir.add ops, in program order
	blocks []*ir.Block     // every block but the module body
}

func newNested(seed int64, n int) *nested {
	g := &nested{r: rand.New(rand.NewSource(seed)), e: newEnv([]int64{2})}
	c := otir.ConstInt(g.e.b, 0, ir.Index())
	g.fill(g.e.b, []*ir.Value{c, otir.ProgramID(g.e.b, 0)}, n, 0)
	g.e.finish()
	return g
}

// fill appends about n ops to b's block; scope holds the values visible there.
func (g *nested) fill(b *ir.Builder, scope []*ir.Value, n, depth int) {
	g.blocks = append(g.blocks, b.Block)
	for ; n > 0; n-- {
		pick := func() *ir.Value {
			if g.r.Intn(4) == 0 {
				return scope[g.r.Intn(len(scope))]
			}
			return scope[len(scope)-1-g.r.Intn(min(len(scope), 4))]
		}
		switch k := g.r.Intn(40); {
		case k == 0 && depth < 3:
			loop, body := scf.For(b, scope[0], pick(), pick())
			in := ir.NewBuilder(body)
			g.fill(in, append(scope[:len(scope):len(scope)], body.Args[0]), g.r.Intn(12), depth+1)
			scf.Yield(in)
			_ = loop
		case k == 1 && depth < 3:
			cond := otir.Cmp(b, "slt", pick(), pick(), ir.Bool())
			_, then, els := scf.If(b, cond, nil, g.r.Intn(2) == 0)
			for _, blk := range []*ir.Block{then, els} {
				if blk != nil {
					in := ir.NewBuilder(blk)
					g.fill(in, scope, g.r.Intn(12), depth+1)
					scf.Yield(in)
				}
			}
		default:
			op := b.Create(otir.OpAdd, []*ir.Value{pick(), pick()}, []ir.Type{ir.Index()}, nil)
			g.adds = append(g.adds, op)
			scope = append(scope, op.Results[0])
		}
	}
}

// breakDominance makes k random otir.add ops use a value they do not see: a
// later one, their own result, or a value from an inner block of another op.
func (g *nested) breakDominance(k int) {
	for ; k > 0; k-- {
		op := g.adds[g.r.Intn(len(g.adds))]
		other := g.adds[g.r.Intn(len(g.adds))]
		if g.r.Intn(4) == 0 {
			other = op
		}
		op.Operands[g.r.Intn(2)] = other.Results[0]
		if g.r.Intn(8) == 0 { // a loop's induction variable, seen only in its body
			if b := g.blocks[g.r.Intn(len(g.blocks))]; len(b.Args) > 0 {
				op.Operands[0] = b.Args[0]
			}
		}
	}
}

// breakRules gives k random otir.add ops another error: a wrong result type or
// an unregistered name.
func (g *nested) breakRules(k int) {
	for ; k > 0; k-- {
		op := g.adds[g.r.Intn(len(g.adds))]
		if g.r.Intn(2) == 0 {
			op.Name = "otir.frob"
		} else {
			op.Results[0].Type = ir.Int(8, true)
		}
	}
}

// breakBoundaries breaks uses across the ranges a parallel walk splits the
// kernel body into (k ranges): the last otir.add before each boundary uses
// the first one after it, which the sequential walk reports.
func (g *nested) breakBoundaries(k int) {
	ops := g.e.body.Ops
	for j := 1; j < k; j++ {
		i := j * len(ops) / k
		before, after := lastAdd(ops[:i]), firstAdd(ops[i:])
		if before != nil && after != nil {
			before.Operands[1] = after.Results[0]
		}
	}
}

func lastAdd(ops []*ir.Operation) *ir.Operation {
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].Name == otir.OpAdd {
			return ops[i]
		}
	}
	return nil
}

func firstAdd(ops []*ir.Operation) *ir.Operation {
	for _, op := range ops {
		if op.Name == otir.OpAdd {
			return op
		}
	}
	return nil
}

// TestParallelMatchesSequential verifies large generated modules, valid and
// broken, with the parallel walk forced on every block of at least 4 ops (in
// up to 8 ranges), and requires the diagnostics of the sequential walk, from
// Verify and from VerifyOp on the kernel and on nested ops.
func TestParallelMatchesSequential(t *testing.T) {
	defer func(ops, procs int) { parallelOps = ops; runtime.GOMAXPROCS(procs) }(parallelOps, runtime.GOMAXPROCS(8))
	for _, c := range []struct {
		name                   string
		seed                   int64
		n                      int
		dom, boundaries, rules int
		listTwice              bool // irregular IR, always walked sequentially
	}{
		{name: "valid", seed: 1, n: 20_000},
		{name: "valid small", seed: 2, n: 300},
		{name: "dominance", seed: 3, n: 20_000, dom: 40},
		{name: "dominance small", seed: 4, n: 200, dom: 10},
		{name: "range boundaries", seed: 5, n: 5_000, boundaries: 8},
		{name: "rules", seed: 6, n: 20_000, rules: 40},
		{name: "all", seed: 7, n: 50_000, dom: 100, boundaries: 8, rules: 100},
		{name: "op listed twice", seed: 8, n: 5_000, dom: 10, listTwice: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newNested(c.seed, c.n)
			g.breakDominance(c.dom)
			g.breakBoundaries(c.boundaries)
			g.breakRules(c.rules)
			if c.listTwice {
				b := g.blocks[len(g.blocks)/2]
				b.Ops = append(b.Ops[:1:1], b.Ops...)
			}
			nestedOps := []*ir.Operation{g.e.kernel}
			for i := 0; i < 20; i++ {
				if p := g.adds[g.r.Intn(len(g.adds))].ParentOp(); p != nil {
					nestedOps = append(nestedOps, p)
				}
			}
			parallelOps = 1 << 30
			want := render(Verify(g.e.m))
			if broken := c.dom+c.boundaries+c.rules > 0 || c.listTwice; (len(want) > 0) != broken {
				t.Fatalf("sequential walk: %d diagnostics, want some: %v", len(want), broken)
			}
			var wantOps [][]string
			for _, op := range nestedOps {
				wantOps = append(wantOps, render(VerifyOp(op)))
			}
			parallelOps = 2
			checkDiags(t, Verify(g.e.m), want)
			for i, op := range nestedOps {
				checkDiags(t, VerifyOp(op), wantOps[i])
			}
		})
	}
}
