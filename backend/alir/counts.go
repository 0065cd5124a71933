package alir

// Kind is the category an operation is counted in by Info (Counts): what
// it costs in a circuit. docs/alir.md ("What info counts") defines each
// category once; the docs, otir-run info and report use these words.
type Kind uint8

const (
	KindNone       Kind = iota
	KindInput           // input
	KindConstant        // const
	KindAdder           // add, sub, neg, sum: a carry chain over non-constant operands
	KindConstAdd        // const_add: an add of a constant
	KindMux             // mux (DAIS neg_mux)
	KindLookup          // lookup: a table
	KindQuantizer       // quantize, relu (DAIS neg_quantize, neg_relu): floor, clamp at 0, wrap
	KindMultiplier      // mul
	KindBitOp           // bit_unary, bit_binary (DAIS neg_bit_unary)
)

// Counts are the operations of a program by category (Kind), counted as
// docs/alir.md ("What info counts") says: an operation whose value does not
// vary (every operand constant, or a wrap to a type of width 0) is a Constant
// whatever its opcode, since synthesis folds it; an add, sub or sum of one
// non-constant operand and constants is a ConstAdd; a sum of k > 1
// non-constant terms counts k-1 Adders, and one ConstAdd more when it also
// has constant terms.
type Counts struct {
	Adders      int `json:"adders"`
	ConstAdds   int `json:"constant_adds"`
	Muxes       int `json:"muxes"`
	Lookups     int `json:"lookups"`
	Quantizers  int `json:"quantizers"`
	Multipliers int `json:"multipliers"`
	BitOps      int `json:"bit_ops"`
	Constants   int `json:"constants"`
}

// ConstantOutput is an output whose value no input changes, and that
// value (nil when the reference evaluator could not compute it).
type ConstantOutput struct {
	Output int      `json:"output"`
	Value  *float64 `json:"value"`
}

// signals is the dependence of a program's values on its inputs.
type signals struct {
	// varies[i]: some input value changes op i's value. An op does not
	// vary when it is a const, it wraps (Wraps) to a type of width 0 (its
	// only value is 0; an exact op's type may be wrong, see Portability),
	// it is a lookup in a table of equal entries, or none of its operands
	// varies.
	varies []bool
}

func (p *Program) signals(inf *info) signals { return signals{p.Varies(inf.kif)} }

// Varies reports, for every op of p whose types are kif, whether some
// input value changes its value (the rule of signals.varies, by which Info
// tells constants and constant adds from adders).
func (p *Program) Varies(kif []KIF) []bool {
	v := make([]bool, len(p.Ops))
	for i, op := range p.Ops {
		e := p.Dialect.Info(op.Opcode)
		if (e.Wraps && kif[i].Width() == 0) || e.Kind == KindConstant {
			continue
		}
		if e.Kind == KindInput {
			v[i] = true
			continue
		}
		if e.Kind == KindLookup && constantTable(p.Tables[op.Data]) {
			continue
		}
		for _, j := range op.operands(p.Dialect) {
			v[i] = v[i] || v[j]
		}
	}
	return v
}

func constantTable(t Table) bool {
	for _, x := range t.Values {
		if x != t.Values[0] {
			return false
		}
	}
	return true
}

// kindOf returns the category op i counts in, and how many adders it
// counts: a neg 1, an add or sub of two non-constant operands 1, a sum of k
// non-constant terms k-1 (and it also counts one constant add when it has
// constant terms: see counts); an op of another category 0.
func (p *Program) kindOf(i int, sg signals) (Kind, int) {
	op := p.Ops[i]
	e := p.Dialect.Info(op.Opcode)
	switch {
	case e.Kind == KindInput:
		return KindInput, 0
	case !sg.varies[i]:
		return KindConstant, 0
	case e.Kind != KindAdder:
		return e.Kind, 0
	}
	k, n := p.varyingOperands(i, sg)
	switch {
	case n == 1: // neg
		return KindAdder, 1
	case k == 1: // an add, sub or sum of one non-constant and constants
		return KindConstAdd, 0
	}
	return KindAdder, k - 1
}

// varyingOperands returns how many of op i's n operands vary (k).
func (p *Program) varyingOperands(i int, sg signals) (k, n int) {
	for _, j := range p.Ops[i].operands(p.Dialect) {
		n++
		if sg.varies[j] {
			k++
		}
	}
	return k, n
}

// counts counts p's operations by category.
func (p *Program) counts(sg signals) Counts {
	var c Counts
	for i := range p.Ops {
		kind, adders := p.kindOf(i, sg)
		switch kind {
		case KindConstant:
			c.Constants++
		case KindAdder:
			c.Adders += adders
			if k, n := p.varyingOperands(i, sg); n > 2 && k < n {
				c.ConstAdds++ // a sum with constant terms
			}
		case KindConstAdd:
			c.ConstAdds++
		case KindMux:
			c.Muxes++
		case KindLookup:
			c.Lookups++
		case KindQuantizer:
			c.Quantizers++
		case KindMultiplier:
			c.Multipliers++
		case KindBitOp:
			c.BitOps++
		}
	}
	return c
}

// Kinds returns the category each operation of p counts in (Counts):
// KindConstant for an op whose value does not vary, KindConstAdd for an
// add, sub or sum of one non-constant operand and constants, else its
// opcode's. p must be valid.
func (p *Program) Kinds() ([]Kind, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	sg := p.signals(inf)
	ks := make([]Kind, len(p.Ops))
	for i := range ks {
		ks[i], _ = p.kindOf(i, sg)
	}
	return ks, nil
}

// deadSignals returns the outputs that no input changes, with their
// values, and the inputs no output depends on (through values that vary).
func (p *Program) deadSignals(sg signals) ([]ConstantOutput, []int) {
	consts := []ConstantOutput{}
	live := make([]bool, len(p.Ops))
	for j, o := range p.Outputs {
		if o.Index < 0 || !sg.varies[o.Index] {
			consts = append(consts, ConstantOutput{Output: j})
			continue
		}
		live[o.Index] = true
	}
	used := make([]bool, p.NumInputs())
	for i := len(p.Ops) - 1; i >= 0; i-- {
		if !live[i] {
			continue
		}
		op := p.Ops[i]
		if p.Dialect.Info(op.Opcode).Kind == KindInput {
			used[op.ID0] = true
		}
		for _, j := range op.operands(p.Dialect) {
			live[j] = live[j] || sg.varies[j]
		}
	}
	unused := []int{}
	for j, u := range used {
		if !u {
			unused = append(unused, j)
		}
	}
	if len(consts) > 0 {
		// The constant outputs' values: any input gives them.
		if out, err := RunExact(p, make([]float64, p.NumInputs()), 1); err == nil {
			for k := range consts {
				consts[k].Value = &out[consts[k].Output]
			}
		}
	}
	return consts, unused
}

// adderDepth is Info.AdderDepth: the longest path from an input to an
// output in adders, each adder op counting the levels of a balanced tree
// of its adders (kindOf).
func (p *Program) adderDepth(sg signals) int {
	d := 0
	for _, o := range p.OutputAdderDepths(sg.varies) {
		d = max(d, o)
	}
	return d
}

// OutputAdderDepths returns each output's adder depth as Info.AdderDepth
// counts it (AdderLevels along the longest path; 0 for a constant-zero
// output), given which ops vary (Varies).
func (p *Program) OutputAdderDepths(varies []bool) []int {
	level := make([]int, len(p.Ops))
	for i, op := range p.Ops {
		for _, j := range op.operands(p.Dialect) {
			level[i] = max(level[i], level[j])
		}
		level[i] += p.AdderLevels(i, varies)
	}
	out := make([]int, len(p.Outputs))
	for k, o := range p.Outputs {
		if o.Index >= 0 {
			out[k] = level[o.Index]
		}
	}
	return out
}

// AdderLevels returns the levels of adders op i adds to a path from an
// input (Info.AdderDepth's rule), given which ops vary (Varies): a
// balanced tree of its adders (kindOf), none for a constant add or an op
// that is no adder.
func (p *Program) AdderLevels(i int, varies []bool) int {
	if kind, adders := p.kindOf(i, signals{varies}); kind == KindAdder {
		return treeLevels(adders)
	}
	return 0
}

// treeLevels returns ceil(log2(n+1)): the levels of a balanced tree of n
// adders (n+1 terms).
func treeLevels(n int) int {
	l := 0
	for 1<<l < n+1 {
		l++
	}
	return l
}
