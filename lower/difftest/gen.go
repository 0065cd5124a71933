package difftest

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Generate returns a random valid integer kernel as OTIR text (a module
// with one kernel @k). The same seed gives the same text.
func Generate(seed uint64) string {
	g := &gen{rng: rand.New(rand.NewPCG(seed, 0x6e6e))}
	g.style = []string{"hls", "cpp"}[g.rng.IntN(2)]
	switch g.rng.IntN(8) {
	case 0, 1:
		g.matmulKernel()
	case 2:
		g.constLeftMatmulKernel()
	default:
		g.elementwiseKernel()
	}
	return g.module()
}

// val is a value of the generated kernel: a #private tile of the generation
// shape, or a scalar (shape nil).
type val struct {
	name  string
	t     ity
	shape []int
}

func (v val) typ() string {
	if v.shape == nil {
		return v.t.String()
	}
	return tileT(v.shape, v.t, "private")
}

type gen struct {
	rng   *rand.Rand
	style string
	args  []string // "%name: type"
	grid  []int
	body  strings.Builder
	depth int
	n     int
	T     int   // elements per workgroup
	pool  []val // #private [T] tiles
	// inViews are the #global [T] views of the inputs.
	inViews []val
	scal    []val // scalar values (the scalar argument)
}

var smallTypes = []ity{{8, true}, {8, false}, {4, true}, {4, false}, {16, true}, {16, false}, {3, true}, {6, false}, {1, false}, {12, true}, {32, true}}

func (g *gen) ty() ity {
	t := smallTypes[g.rng.IntN(len(smallTypes))]
	if t.w == 32 && g.rng.IntN(2) == 0 {
		t = ity{8, true}
	}
	return t
}

func (g *gen) fresh() string { g.n++; return fmt.Sprintf("%%v%d", g.n) }

func (g *gen) line(format string, args ...any) {
	g.body.WriteString(strings.Repeat("  ", 2+g.depth))
	fmt.Fprintf(&g.body, format, args...)
	g.body.WriteByte('\n')
}

func (g *gen) module() string {
	grid := make([]string, len(g.grid))
	for i, d := range g.grid {
		grid[i] = fmt.Sprint(d)
	}
	return fmt.Sprintf("module attributes {otir.typing_style = %q} {\n  otir.kernel @k(%s) attributes {grid = [%s]} {\n%s    otir.return\n  }\n}\n",
		g.style, strings.Join(g.args, ", "), strings.Join(grid, ", "), g.body.String())
}

func (g *gen) pick() val { return g.pool[g.rng.IntN(len(g.pool))] }

// constant returns a new constant tile (or splat) of type t.
func (g *gen) constant(t ity, shape []int) val {
	lo, hi := rangeOf(t)
	if hi-lo > 1<<20 {
		lo, hi = -1000, 1000
		if !t.signed {
			lo = 0
		}
	}
	rnd := func() string {
		v := lo + g.rng.Int64N(hi-lo+1)
		if t.w == 1 {
			return []string{"false", "true"}[v]
		}
		return fmt.Sprint(v)
	}
	name := g.fresh()
	n := 1
	for _, d := range shape {
		n *= d
	}
	lit := rnd()
	if g.rng.IntN(3) > 0 && n > 1 {
		lit = nested(shape, func() string { return rnd() })
	}
	g.line("%s = otir.constant dense<%s> : %s", name, lit, tileT(shape, t, "private"))
	return val{name, t, shape}
}

// nested prints a nested list literal of the shape.
func nested(shape []int, elem func() string) string {
	if len(shape) == 0 {
		return elem()
	}
	parts := make([]string, shape[0])
	for i := range parts {
		parts[i] = nested(shape[1:], elem)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// elementwiseKernel: inputs sliced per workgroup, loaded directly or by
// DMA, a random expression DAG with loops and branches, stores (some by
// DMA), an optional atomic accumulator.
func (g *gen) elementwiseKernel() {
	g.T = []int{1, 2, 4, 4}[g.rng.IntN(4)]
	G := 1 + g.rng.IntN(3)
	g.grid = []int{G}
	nIn := 1 + g.rng.IntN(3)
	nOut := 1 + g.rng.IntN(2)
	ins := g.tileArgs("x", nIn, G)
	var sc *ity
	if g.rng.IntN(2) == 0 {
		t := g.ty()
		if t.w == 1 {
			t = ity{8, true}
		}
		sc = &t
		g.args = append(g.args, fmt.Sprintf("%%s: %s", t))
	}
	outs := g.tileArgs("y", nOut, G)
	var acc *ity
	if g.rng.IntN(3) == 0 {
		t := g.ty()
		acc = &t
		g.args = append(g.args, fmt.Sprintf("%%acc: %s", tileT([]int{g.T}, t, "global")))
	}
	g.line("%%pid = otir.program_id axis(0)")
	g.line("%%cT = otir.constant %d : index", g.T)
	g.line("%%off = otir.mul %%pid, %%cT : index")
	for i, t := range ins {
		gv := g.sliceArg("x", i, G, t)
		g.pool = append(g.pool, g.loadView(gv, t))
		g.inViews = append(g.inViews, val{gv, t, []int{g.T}})
	}
	if sc != nil {
		g.scal = append(g.scal, val{"%s", *sc, nil})
	}
	for steps := 2 + g.rng.IntN(7); steps > 0; steps-- {
		g.step()
	}
	for i, t := range outs {
		gv := g.sliceArg("y", i, G, t)
		g.storeView(g.castTo(g.pick(), t), gv)
	}
	if acc != nil {
		kinds := []string{"add", "max", "min", "and", "or", "xor", "umax", "umin", "xchg"}
		v := g.castTo(g.pick(), *acc)
		old := g.fresh()
		g.line("%s = otir.atomic_rmw %%acc, %s, kind(%s), memory_order(relaxed) : %s, %s -> %s", old, v.name,
			kinds[g.rng.IntN(len(kinds))], tileT([]int{g.T}, *acc, "global"), v.typ(), v.typ())
	}
}

// tileArgs adds n kernel arguments %<name>0, %<name>1, ...: #global tiles
// of G*T elements of random types, which it returns.
func (g *gen) tileArgs(name string, n, G int) []ity {
	ts := make([]ity, n)
	for i := range ts {
		ts[i] = g.ty()
		g.args = append(g.args, fmt.Sprintf("%%%s%d: %s", name, i, tileT([]int{G * g.T}, ts[i], "global")))
	}
	return ts
}

// sliceArg extracts the workgroup's T elements (from %off) of argument
// %<name><i> (tileArgs) as %g<name><i>, whose name it returns.
func (g *gen) sliceArg(name string, i, G int, t ity) string {
	gv := fmt.Sprintf("%%g%s%d", name, i)
	g.line("%s = otir.extract_slice %%%s%d[%%off] [%d] [1] : %s to %s", gv, name, i, g.T, tileT([]int{G * g.T}, t, "global"), tileT([]int{g.T}, t, "global"))
	return gv
}

// loadView loads a #global [T] view: directly, or by a (sometimes masked)
// DMA into #workgroup memory.
func (g *gen) loadView(gv string, t ity) val {
	p, gt := tileT([]int{g.T}, t, "private"), tileT([]int{g.T}, t, "global")
	name := g.fresh()
	if g.rng.IntN(2) == 0 {
		g.line("%s = otir.load %s : %s -> %s", name, gv, gt, p)
		return val{name, t, []int{g.T}}
	}
	wt := tileT([]int{g.T}, t, "workgroup")
	w, tok := g.fresh(), g.fresh()
	g.line("%s = otir.alloc() : %s", w, wt)
	if g.rng.IntN(3) == 0 {
		// A masked copy into initialised memory.
		z := g.constant(t, []int{g.T})
		g.line("otir.store %s, %s : %s, %s", z.name, w, p, wt)
		m := g.constant(ity{1, false}, []int{g.T})
		g.line("%s = otir.dma_copy_async %s, %s, %s : (%s, %s, %s) -> !otir.token", tok, gv, w, m.name, gt, wt, m.typ())
	} else {
		g.line("%s = otir.dma_copy_async %s, %s : (%s, %s) -> !otir.token", tok, gv, w, gt, wt)
	}
	g.line("otir.wait [%s]", tok)
	g.line("%s = otir.load %s : %s -> %s", name, w, wt, p)
	return val{name, t, []int{g.T}}
}

// storeView stores v into a #global [T] view, directly or through
// #workgroup memory and a DMA.
func (g *gen) storeView(v val, gv string) {
	gt := tileT([]int{g.T}, v.t, "global")
	if g.rng.IntN(3) > 0 {
		g.line("otir.store %s, %s : %s, %s", v.name, gv, v.typ(), gt)
		return
	}
	wt := tileT([]int{g.T}, v.t, "workgroup")
	w, tok := g.fresh(), g.fresh()
	g.line("%s = otir.alloc() : %s", w, wt)
	g.line("otir.store %s, %s : %s, %s", v.name, w, v.typ(), wt)
	g.line("%s = otir.dma_copy_async %s, %s : (%s, %s) -> !otir.token", tok, w, gv, wt, gt)
	g.line("otir.wait [%s]", tok)
}

// castTo converts v to element type t (no op when it has it).
func (g *gen) castTo(v val, t ity) val {
	if v.t == t {
		return v
	}
	name := g.fresh()
	out := val{name, t, v.shape}
	g.line("%s = otir.cast %s : %s -> %s", name, v.name, v.typ(), out.typ())
	return out
}

// step adds one random operation (or a loop, or a branch) to the pool.
func (g *gen) step() { g.pool = append(g.pool, g.randomOp()) }

// randomOp builds one random operation, loop or branch and returns its
// value.
func (g *gen) randomOp() val {
	switch r := g.rng.IntN(24); {
	case r < 7:
		return g.binary()
	case r < 8:
		return g.reduction()
	case r < 12:
		return g.lookup()
	case r < 14:
		return g.unary()
	case r < 16:
		return g.shiftOrDivide()
	case r < 18:
		return g.selectOp()
	case r < 19 && g.rng.IntN(2) == 0:
		return g.constant(g.ty(), []int{g.T})
	case r < 19 && g.rng.IntN(2) == 0:
		return g.reshuffle()
	case r < 19:
		return g.insert()
	case r < 21 && g.depth == 0:
		return g.loop()
	case g.depth == 0:
		return g.branch()
	default:
		return g.binary()
	}
}

var binOps = []string{"add", "sub", "mul", "and", "or", "xor", "max", "min"}

// binary applies a random binary operation to two pool values (or a value
// and a scalar), in one of the three type-annotation forms.
func (g *gen) binary() val {
	op := binOps[g.rng.IntN(len(binOps))]
	x, y := g.pick(), g.pick()
	if len(g.scal) > 0 && g.rng.IntN(4) == 0 {
		y = g.scal[0]
	}
	if g.rng.IntN(2) == 0 {
		x, y = y, x
		if x.shape == nil && y.shape == nil {
			x = g.pick()
		}
	}
	name := g.fresh()
	shape := []int{g.T}
	switch f := g.rng.IntN(3); {
	case f == 0 && x.t == y.t && x.shape != nil && y.shape != nil:
		g.line("%s = otir.%s %s, %s : %s", name, op, x.name, y.name, x.typ())
		return val{name, x.t, shape}
	case f == 1:
		if t, ok := inferred(g.style, op, x.t, y.t); ok && t.w <= 40 {
			g.line("%s = otir.%s %s, %s : %s, %s", name, op, x.name, y.name, x.typ(), y.typ())
			return val{name, t, shape}
		}
	}
	rt := g.ty()
	out := val{name, rt, shape}
	g.line("%s = otir.%s %s, %s : (%s, %s) -> %s", name, op, x.name, y.name, x.typ(), y.typ(), out.typ())
	return out
}

func (g *gen) unary() val {
	x := g.pick()
	name := g.fresh()
	op := []string{"neg", "abs", "not", "cast"}[g.rng.IntN(4)]
	rt := g.ty()
	out := val{name, rt, x.shape}
	if op == "cast" {
		g.line("%s = otir.cast %s : %s -> %s", name, x.name, x.typ(), out.typ())
		return out
	}
	if g.rng.IntN(2) == 0 {
		g.line("%s = otir.%s %s : %s", name, op, x.name, x.typ())
		return val{name, x.t, x.shape}
	}
	g.line("%s = otir.%s %s : (%s) -> %s", name, op, x.name, x.typ(), out.typ())
	return out
}

// shiftOrDivide shifts by, or divides by, a nonzero constant: one for the
// whole tile (a power of two half of the time), or one per element.
func (g *gen) shiftOrDivide() val {
	x := g.pick()
	if x.t.w == 1 {
		x = g.castTo(x, ity{8, true})
	}
	ops := []string{"shl", "shr_s", "shr_u", "div_s", "div_u", "rem_s", "rem_u"}
	op := ops[g.rng.IntN(len(ops))]
	_, hi := rangeOf(x.t)
	lit := ""
	if strings.HasPrefix(op, "sh") {
		lit = fmt.Sprint(min(int64(g.rng.IntN(x.t.w+2)), hi))
	} else if g.rng.IntN(3) == 0 {
		lit = nested(x.shape, func() string { return fmt.Sprint(g.divisor(x.t, op)) })
	} else {
		lit = fmt.Sprint(g.divisor(x.t, op))
	}
	c := g.fresh()
	g.line("%s = otir.constant dense<%s> : %s", c, lit, x.typ())
	name := g.fresh()
	rt := x.t
	if g.rng.IntN(2) == 0 {
		rt = g.ty()
	}
	out := val{name, rt, x.shape}
	g.line("%s = otir.%s %s, %s : (%s, %s) -> %s", name, op, x.name, c, x.typ(), x.typ(), out.typ())
	return out
}

// divisor returns a random nonzero constant of type t to divide by: a power
// of two half of the time, else small or anywhere in the type. For the _s
// operations on a signed type it is negative half of the time (sometimes
// the most negative value); on an unsigned type, a value with its top bit
// set reads as negative.
func (g *gen) divisor(t ity, op string) int64 {
	lo, hi := rangeOf(t)
	k := min(int64(1)<<g.rng.IntN(t.w), hi)
	if k&(k-1) != 0 { // hi is not a power of two: use half of it
		k = (hi + 1) / 2
	}
	if g.rng.IntN(2) == 0 {
		// Any nonzero divisor: small, or anywhere in the type.
		k = 1 + g.rng.Int64N(min(hi, 12))
		if g.rng.IntN(3) == 0 {
			k = 1 + g.rng.Int64N(hi)
		}
	}
	if t.signed && strings.HasSuffix(op, "_s") && g.rng.IntN(2) == 0 {
		k = -k
		if g.rng.IntN(8) == 0 {
			k = lo
		}
	}
	return k
}

var preds = []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}

// cmp compares two values.
func (g *gen) cmp(x, y val) val {
	name := g.fresh()
	shape := x.shape
	if shape == nil {
		shape = y.shape
	}
	out := val{name, ity{1, false}, shape}
	g.line("%s = otir.cmp kind(%s) %s, %s : (%s, %s) -> %s", name, preds[g.rng.IntN(len(preds))], x.name, y.name, x.typ(), y.typ(), out.typ())
	return out
}

func (g *gen) selectOp() val {
	c := g.cmp(g.pick(), g.pick())
	a, b := g.pick(), g.pick()
	name := g.fresh()
	rt := a.t
	if g.rng.IntN(2) == 0 {
		rt = g.ty()
	}
	out := val{name, rt, []int{g.T}}
	g.line("%s = otir.select %s, %s, %s : (%s, %s, %s) -> %s", name, c.name, a.name, b.name, c.typ(), a.typ(), b.typ(), out.typ())
	return out
}

// loop accumulates over a static scf.for (sometimes using the induction
// variable).
func (g *gen) loop() val {
	init := g.pick()
	x := g.pick()
	n := 1 + g.rng.IntN(4)
	lb, ub, st := g.fresh(), g.fresh(), g.fresh()
	g.line("%s = otir.constant 0 : index", lb)
	g.line("%s = otir.constant %d : index", ub, n)
	g.line("%s = otir.constant 1 : index", st)
	name, iv, acc := g.fresh(), g.fresh(), g.fresh()
	g.line("%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) {", name, iv, lb, ub, st, acc, init.name, init.typ())
	g.depth++
	a := val{acc, init.t, init.shape}
	op := []string{"add", "sub", "xor", "max", "mul"}[g.rng.IntN(5)]
	if op == "mul" && g.rng.IntN(2) == 0 {
		op = "add"
	}
	t := g.fresh()
	g.line("%s = otir.%s %s, %s : (%s, %s) -> %s", t, op, a.name, x.name, a.typ(), x.typ(), a.typ())
	res := t
	if g.rng.IntN(2) == 0 {
		ic, t2 := g.fresh(), g.fresh()
		g.line("%s = otir.cast %s : index -> %s", ic, iv, init.t)
		g.line("%s = otir.add %s, %s : (%s, %s) -> %s", t2, t, ic, a.typ(), init.t, a.typ())
		res = t2
	}
	g.line("scf.yield %s : %s", res, a.typ())
	g.depth--
	g.line("}")
	return val{name, init.t, init.shape}
}

// branch is an scf.if on a data-dependent condition (the scalar argument)
// or a static one (the program id), yielding a value and sometimes storing
// into workgroup scratch memory on one side.
func (g *gen) branch() val {
	var c val
	if len(g.scal) > 0 && g.rng.IntN(3) > 0 {
		k := g.fresh()
		kv := g.rng.IntN(5) - 2
		if !g.scal[0].t.signed {
			kv += 2
		}
		g.line("%s = otir.constant %d : %s", k, kv, g.scal[0].t)
		c = g.cmp(g.scal[0], val{k, g.scal[0].t, nil})
	} else {
		k := g.fresh()
		g.line("%s = otir.constant %d : index", k, g.rng.IntN(3))
		name := g.fresh()
		g.line("%s = otir.cmp kind(%s) %%pid, %s : (index, index) -> i1", name, []string{"eq", "ne", "slt"}[g.rng.IntN(3)], k)
		c = val{name, ity{1, false}, nil}
	}
	rt := g.ty()
	name := g.fresh()
	typ := tileT([]int{g.T}, rt, "private")
	// Sometimes the branches also write #workgroup scratch memory (by a
	// store or a DMA waited on in the branch), read after the if.
	var w string
	var wt ity
	if g.rng.IntN(2) == 0 {
		wt = g.pick().t
		w = g.fresh()
		g.line("%s = otir.alloc() : %s", w, tileT([]int{g.T}, wt, "workgroup"))
		g.line("otir.store %s, %s : %s, %s", g.constant(wt, []int{g.T}).name, w, tileT([]int{g.T}, wt, "private"), tileT([]int{g.T}, wt, "workgroup"))
	}
	g.line("%s = scf.if %s -> (%s) {", name, c.name, typ)
	g.depth++
	for side := 0; side < 2; side++ {
		if w != "" && g.rng.IntN(3) > 0 {
			g.scratchWrite(w, wt)
		}
		v := g.castTo(g.binary(), rt)
		g.line("scf.yield %s : %s", v.name, typ)
		g.depth--
		if side == 0 {
			g.line("} else {")
			g.depth++
		}
	}
	g.line("}")
	if w != "" {
		l := g.fresh()
		g.line("%s = otir.load %s : %s -> %s", l, w, tileT([]int{g.T}, wt, "workgroup"), tileT([]int{g.T}, wt, "private"))
		g.pool = append(g.pool, val{l, wt, []int{g.T}})
	}
	return val{name, rt, []int{g.T}}
}

// scratchWrite writes #workgroup memory w (of element type t) inside a
// branch: a store of a pool value, or a (sometimes data-masked) DMA from
// #workgroup memory filled from the pool, waited on at once.
func (g *gen) scratchWrite(w string, t ity) {
	wt, pt := tileT([]int{g.T}, t, "workgroup"), tileT([]int{g.T}, t, "private")
	var src string
	for _, in := range g.inViews {
		if in.t == t {
			src = in.name
		}
	}
	if src == "" || g.rng.IntN(2) == 0 {
		v := g.castTo(g.pick(), t)
		g.line("otir.store %s, %s : %s, %s", v.name, w, pt, wt)
		return
	}
	gt := tileT([]int{g.T}, t, "global")
	tok := g.fresh()
	if g.rng.IntN(2) == 0 {
		m := g.cmp(g.pick(), g.pick())
		g.line("%s = otir.dma_copy_async %s, %s, %s : (%s, %s, %s) -> !otir.token", tok, src, w, m.name, gt, wt, m.typ())
	} else {
		g.line("%s = otir.dma_copy_async %s, %s : (%s, %s) -> !otir.token", tok, src, w, gt, wt)
	}
	g.line("otir.wait [%s]", tok)
}

// insert replaces part of a pool value by a constant (insert_slice).
func (g *gen) insert() val {
	x := g.pick()
	if x.shape == nil {
		return g.unary()
	}
	n := 1 + g.rng.IntN(g.T)
	off := g.rng.IntN(g.T - n + 1)
	c := g.constant(x.t, []int{n})
	name := g.fresh()
	g.line("%s = otir.insert_slice %s into %s[%d] [%d] [1] : %s into %s", name, c.name, x.name, off, n, c.typ(), x.typ())
	return val{name, x.t, x.shape}
}

// reshuffle reshapes a [T] tile to [T/2, 2], transposes it, and reshapes
// it back: a permutation of its elements.
// reduction folds a pool value with otir.reduce: to a scalar (rank 1, or
// rank 2 folded along its long axis after a reshape, then along the other)
// or along a unit axis; the result is combined with another pool value.
func (g *gen) reduction() val {
	x := g.pick()
	if x.shape == nil {
		return g.binary()
	}
	kind := []string{"add", "max", "min"}[g.rng.IntN(3)]
	var s string
	switch {
	case g.T%2 == 0 && g.rng.IntN(2) == 0:
		// [T] -> [2, T/2] -> fold axis 1 -> [2] -> fold axis 0 -> scalar.
		a, b := g.fresh(), g.fresh()
		t2, t1 := tileT([]int{2, g.T / 2}, x.t, "private"), tileT([]int{2}, x.t, "private")
		g.line("%s = otir.reshape %s : %s -> %s", a, x.name, x.typ(), t2)
		g.line("%s = otir.reduce kind(%s) %s, axis(1) : %s -> %s", b, kind, a, t2, t1)
		s = g.fresh()
		g.line("%s = otir.reduce kind(%s) %s, axis(0) : %s -> %s", s, kind, b, t1, x.t)
	case g.rng.IntN(3) == 0:
		// [T] -> [T, 1] -> fold the unit axis -> [T]: each element alone.
		a, b := g.fresh(), g.fresh()
		t2 := tileT([]int{g.T, 1}, x.t, "private")
		g.line("%s = otir.reshape %s : %s -> %s", a, x.name, x.typ(), t2)
		g.line("%s = otir.reduce kind(%s) %s, axis(1) : %s -> %s", b, kind, a, t2, x.typ())
		return val{b, x.t, x.shape}
	default:
		s = g.fresh()
		g.line("%s = otir.reduce kind(%s) %s, axis(0) : %s -> %s", s, kind, x.name, x.typ(), x.t)
	}
	y, name, rt := g.pick(), g.fresh(), g.ty()
	out := val{name, rt, []int{g.T}}
	op := binOps[g.rng.IntN(len(binOps))]
	g.line("%s = otir.%s %s, %s : (%s, %s) -> %s", name, op, y.name, s, y.typ(), x.t, out.typ())
	return out
}

// lookupTypes are the input types of the generated lookups (tables of 2 to
// 256 entries); a wider pool value is cast to one first.
var lookupTypes = []ity{{1, false}, {3, true}, {4, true}, {4, false}, {6, false}, {8, true}, {8, false}}

// lookup reads a random table with otir.lookup, over a pool value or the
// scalar argument (whose scalar result is combined with a pool value). The
// input is sometimes masked (otir.and) or clamped (otir.max), so that its
// interval is narrower than its type's and the circuit's table is a slice;
// the entries are anywhere in the result type, or within a few values of
// each other (a slice may then be constant), or all one value.
func (g *gen) lookup() val {
	x := g.pick()
	scalar := len(g.scal) > 0 && g.rng.IntN(2) == 0
	if scalar {
		x = g.scal[0]
	}
	if x.t.w > 8 || g.rng.IntN(4) == 0 {
		x = g.castTo(x, lookupTypes[g.rng.IntN(len(lookupTypes))])
	}
	xlo, xhi := rangeOf(x.t)
	switch op := g.rng.IntN(6); {
	case op == 0 && x.t.w > 1:
		c, name := g.fresh(), g.fresh()
		g.line("%s = otir.constant %d : %s", c, int64(1)<<g.rng.IntN(x.t.w)-1, x.t)
		g.line("%s = otir.and %s, %s : (%s, %s) -> %s", name, x.name, c, x.typ(), x.t, x.typ())
		x = val{name, x.t, x.shape}
	case op == 1 && x.t.w > 1:
		c, name := g.fresh(), g.fresh()
		g.line("%s = otir.constant %d : %s", c, xlo+g.rng.Int64N(xhi-xlo+1), x.t)
		g.line("%s = otir.max %s, %s : (%s, %s) -> %s", name, x.name, c, x.typ(), x.t, x.typ())
		x = val{name, x.t, x.shape}
	}
	rt := g.ty()
	lo, hi := rangeOf(rt)
	if spread := int64(1) << g.rng.IntN(3); g.rng.IntN(3) == 0 && hi-lo > spread {
		lo += g.rng.Int64N(hi - lo - spread + 1)
		hi = lo + spread
	}
	entries := make([]string, int64(1)<<x.t.w)
	splat := g.rng.IntN(8) == 0
	for i := range entries {
		if i == 0 || !splat {
			entries[i] = fmt.Sprint(lo + g.rng.Int64N(hi-lo+1))
		} else {
			entries[i] = entries[0]
		}
	}
	name := g.fresh()
	out := val{name, rt, x.shape}
	g.line("%s = otir.lookup %s, table(dense<[%s]> : tensor<%dx%s>) : %s -> %s", name, x.name, strings.Join(entries, ", "), len(entries), rt, x.typ(), out.typ())
	if !scalar {
		return out
	}
	y, res := g.pick(), g.fresh()
	rt = g.ty()
	g.line("%s = otir.%s %s, %s : (%s, %s) -> %s", res, binOps[g.rng.IntN(len(binOps))], y.name, name, y.typ(), out.typ(), tileT([]int{g.T}, rt, "private"))
	return val{res, rt, []int{g.T}}
}

func (g *gen) reshuffle() val {
	x := g.pick()
	if g.T%2 != 0 || x.shape == nil {
		return g.unary()
	}
	a, b, c := g.fresh(), g.fresh(), g.fresh()
	t2, t3 := tileT([]int{g.T / 2, 2}, x.t, "private"), tileT([]int{2, g.T / 2}, x.t, "private")
	g.line("%s = otir.reshape %s : %s -> %s", a, x.name, x.typ(), t2)
	g.line("%s = otir.transpose %s, permutation(1, 0) : %s -> %s", b, a, t2, t3)
	g.line("%s = otir.reshape %s : %s -> %s", c, b, t3, x.typ())
	return val{c, x.t, x.shape}
}

// matmulKernel: a row block of A per workgroup times a constant or loaded
// B, plus a constant C; sometimes split along K into two halves copied by
// DMA into two buffers (double buffering) and accumulated.
func (g *gen) matmulKernel() {
	M, K, N := 1+g.rng.IntN(3), 2*(1+g.rng.IntN(2)), 1+g.rng.IntN(3)
	G := 1 + g.rng.IntN(2)
	g.grid = []int{G}
	narrow := []ity{{8, true}, {8, false}, {4, true}, {4, false}, {3, true}, {6, false}, {1, false}}
	ta, tb := narrow[g.rng.IntN(len(narrow))], narrow[g.rng.IntN(len(narrow))]
	td := []ity{{16, true}, {20, true}, {32, true}, {12, true}}[g.rng.IntN(4)]
	g.args = append(g.args, fmt.Sprintf("%%A: %s", tileT([]int{G * M, K}, ta, "global")))
	constB := g.rng.IntN(2) == 0
	if !constB {
		g.args = append(g.args, fmt.Sprintf("%%B: %s", tileT([]int{K, N}, tb, "global")))
	}
	g.args = append(g.args, fmt.Sprintf("%%D: %s", tileT([]int{G * M, N}, td, "global")))
	g.line("%%pid = otir.program_id axis(0)")
	g.line("%%cM = otir.constant %d : index", M)
	g.line("%%off = otir.mul %%pid, %%cM : index")
	gaT := tileT([]int{M, K}, ta, "global")
	g.line("%%ga = otir.extract_slice %%A[%%off, 0] [%d, %d] [1, 1] : %s to %s", M, K, tileT([]int{G * M, K}, ta, "global"), gaT)
	var b val
	if constB {
		b = g.constant(tb, []int{K, N})
	} else {
		b = val{g.fresh(), tb, []int{K, N}}
		g.line("%s = otir.load %%B : %s -> %s", b.name, tileT([]int{K, N}, tb, "global"), b.typ())
	}
	c := g.constant(td, []int{M, N})
	dT := tileT([]int{M, N}, td, "private")
	var d string
	if g.rng.IntN(2) == 0 {
		a := val{g.fresh(), ta, []int{M, K}}
		g.line("%s = otir.load %%ga : %s -> %s", a.name, gaT, a.typ())
		d = g.fresh()
		g.line("%s = otir.matmul %s, %s, %s : (%s, %s, %s) -> %s", d, a.name, b.name, c.name, a.typ(), b.typ(), c.typ(), dT)
	} else {
		// Double buffering along K: two halves, two buffers, two DMAs.
		h := K / 2
		hg, hw, hp := tileT([]int{M, h}, ta, "global"), tileT([]int{M, h}, ta, "workgroup"), tileT([]int{M, h}, ta, "private")
		hb := tileT([]int{h, N}, tb, "private")
		acc := c.name
		var toks, bufs []string
		for i := 0; i < 2; i++ {
			s, w, tok := g.fresh(), g.fresh(), g.fresh()
			g.line("%s = otir.extract_slice %%ga[0, %d] [%d, %d] [1, 1] : %s to %s", s, i*h, M, h, gaT, hg)
			g.line("%s = otir.alloc() : %s", w, hw)
			g.line("%s = otir.dma_copy_async %s, %s : (%s, %s) -> !otir.token", tok, s, w, hg, hw)
			toks, bufs = append(toks, tok), append(bufs, w)
		}
		for i := 0; i < 2; i++ {
			g.line("otir.wait [%s]", toks[i])
			a, bs, dd := g.fresh(), g.fresh(), g.fresh()
			g.line("%s = otir.load %s : %s -> %s", a, bufs[i], hw, hp)
			g.line("%s = otir.extract_slice %s[%d, 0] [%d, %d] [1, 1] : %s to %s", bs, b.name, i*h, h, N, b.typ(), hb)
			g.line("%s = otir.matmul %s, %s, %s : (%s, %s, %s) -> %s", dd, a, bs, acc, hp, hb, dT, dT)
			acc = dd
		}
		d = acc
	}
	if g.rng.IntN(2) == 0 {
		d = g.clampEpilogue(val{d, td, []int{M, N}}).name
	}
	g.line("%%gd = otir.extract_slice %%D[%%off, 0] [%d, %d] [1, 1] : %s to %s", M, N, tileT([]int{G * M, N}, td, "global"), tileT([]int{M, N}, td, "global"))
	g.line("otir.store %s, %%gd : %s, %s", d, dT, tileT([]int{M, N}, td, "global"))
}

// constLeftMatmulKernel: a constant matrix times a row block of X per
// workgroup (the constant is the left operand).
func (g *gen) constLeftMatmulKernel() {
	M, K, N := 1+g.rng.IntN(3), 1+g.rng.IntN(3), 1+g.rng.IntN(3)
	G := 1 + g.rng.IntN(2)
	g.grid = []int{G}
	narrow := []ity{{8, true}, {8, false}, {4, true}, {3, true}, {6, false}}
	tx, tw := narrow[g.rng.IntN(len(narrow))], narrow[g.rng.IntN(len(narrow))]
	td := []ity{{16, true}, {20, true}, {32, true}}[g.rng.IntN(3)]
	g.args = append(g.args, fmt.Sprintf("%%X: %s", tileT([]int{G * M, K}, tx, "global")))
	g.args = append(g.args, fmt.Sprintf("%%D: %s", tileT([]int{G * N, K}, td, "global")))
	g.line("%%pid = otir.program_id axis(0)")
	g.line("%%cM = otir.constant %d : index", M)
	g.line("%%cN = otir.constant %d : index", N)
	g.line("%%offx = otir.mul %%pid, %%cM : index")
	g.line("%%offd = otir.mul %%pid, %%cN : index")
	g.line("%%gx = otir.extract_slice %%X[%%offx, 0] [%d, %d] [1, 1] : %s to %s", M, K, tileT([]int{G * M, K}, tx, "global"), tileT([]int{M, K}, tx, "global"))
	x := val{g.fresh(), tx, []int{M, K}}
	g.line("%s = otir.load %%gx : %s -> %s", x.name, tileT([]int{M, K}, tx, "global"), x.typ())
	w := g.constant(tw, []int{N, M})
	c := g.constant(td, []int{N, K})
	d := g.fresh()
	dT := tileT([]int{N, K}, td, "private")
	g.line("%s = otir.matmul %s, %s, %s : (%s, %s, %s) -> %s", d, w.name, x.name, c.name, w.typ(), x.typ(), c.typ(), dT)
	g.line("%%gd = otir.extract_slice %%D[%%offd, 0] [%d, %d] [1, 1] : %s to %s", N, K, tileT([]int{G * N, K}, td, "global"), tileT([]int{N, K}, td, "global"))
	g.line("otir.store %s, %%gd : %s, %s", d, dT, tileT([]int{N, K}, td, "global"))
}

// clampEpilogue follows a product d with the shape of a quantized network's
// activation: d narrowed (shr_s, cast), then abs or neg of its min or max
// with p = (n + c) - n, a constant c to the verifier's linear forms but an
// interval as wide as n's to the lowering's interval arithmetic. With c
// often outside n's range, the verifier sees that the mux of the min or max
// never selects one branch where the lowering cannot (the neg typed from
// the lowering's interval of abs(min(...)) was once rejected for it).
// It returns a value of d's type.
func (g *gen) clampEpilogue(d val) val {
	tn := []ity{{4, true}, {3, true}, {8, true}, {4, false}}[g.rng.IntN(4)]
	ti := ity{16, true}
	sh, sv := g.fresh(), g.fresh()
	g.line("%s = otir.constant dense<%d> : %s", sh, g.rng.IntN(4), d.typ())
	g.line("%s = otir.shr_s %s, %s : (%s, %s) -> %s", sv, d.name, sh, d.typ(), d.typ(), d.typ())
	n := g.castTo(g.castTo(val{sv, d.t, d.shape}, tn), ti)
	lo, hi := rangeOf(tn)
	c := 2*lo + g.rng.Int64N(2*(hi-lo)+1) // in [2lo, 2hi]
	cv, a, p, m, r := g.fresh(), g.fresh(), g.fresh(), g.fresh(), g.fresh()
	g.line("%s = otir.constant dense<%d> : %s", cv, c, n.typ())
	g.line("%s = otir.add %s, %s : %s", a, n.name, cv, n.typ())
	g.line("%s = otir.sub %s, %s : %s", p, a, n.name, n.typ())
	x, y := p, n.name
	if g.rng.IntN(2) == 0 {
		x, y = y, x
	}
	g.line("%s = otir.%s %s, %s : %s", m, []string{"min", "max"}[g.rng.IntN(2)], x, y, n.typ())
	g.line("%s = otir.%s %s : %s", r, []string{"abs", "neg"}[g.rng.IntN(2)], m, n.typ())
	return g.castTo(val{r, ti, d.shape}, d.t)
}
