package alir

import "fmt"

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
// vary (every operand constant, or a type of width 0) is a Constant
// whatever its opcode, since synthesis folds it; an add or sub with one
// constant operand is a ConstAdd; a sum of k non-constant terms counts k-1
// Adders, and one ConstAdd more when it also has constant terms.
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

// ConstantOutput is an output whose value no input changes.
type ConstantOutput struct {
	Output int     `json:"output"`
	Value  float64 `json:"value"`
}

// signals is the dependence of a program's values on its inputs.
type signals struct {
	// varies[i]: some input value changes op i's value. An op does not
	// vary when it is a const, its type has width 0 (its only value is
	// 0), it is a lookup in a table of equal entries, or none of its
	// operands varies.
	varies []bool
}

func (p *Program) signals(inf *info) signals {
	v := make([]bool, len(p.Ops))
	for i, op := range p.Ops {
		e := p.Dialect.Info(op.Opcode)
		if inf.kif[i].Width() == 0 || e.Kind == KindConstant {
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
	return signals{v}
}

func constantTable(t Table) bool {
	for _, x := range t.Values {
		if x != t.Values[0] {
			return false
		}
	}
	return true
}

// counts counts p's operations by category.
func (p *Program) counts(sg signals) Counts {
	var c Counts
	for i, op := range p.Ops {
		e := p.Dialect.Info(op.Opcode)
		if e.Kind == KindInput {
			continue
		}
		if !sg.varies[i] {
			c.Constants++
			continue
		}
		switch e.Kind {
		case KindAdder:
			k, n := 0, 0
			for _, j := range op.operands(p.Dialect) {
				n++
				if sg.varies[j] {
					k++
				}
			}
			switch {
			case n == 1: // neg
				c.Adders++
			default:
				c.Adders += k - 1
				if k < n {
					c.ConstAdds++
				}
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

// deadSignals returns the outputs that no input changes, with their
// values, and the inputs no output depends on (through values that vary).
func (p *Program) deadSignals(sg signals) ([]ConstantOutput, []int, error) {
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
		m, err := Compile(p)
		if err != nil {
			return nil, nil, err
		}
		out, err := m.Run(make([]float64, p.NumInputs()), 1)
		if err != nil {
			return nil, nil, fmt.Errorf("computing the constant outputs: %w", err)
		}
		for k := range consts {
			consts[k].Value = out[consts[k].Output]
		}
	}
	return consts, unused, nil
}
