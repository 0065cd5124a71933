package alir

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// OpCount is the number of operations with one opcode.
type OpCount struct {
	Opcode Opcode `json:"opcode"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
}

// Info summarizes a program.
type Info struct {
	Dialect string `json:"dialect"`
	// Spec is the ALIR spec version the program was read from (0: DAIS,
	// or not read from a file).
	Spec         int       `json:"spec,omitempty"`
	Inputs       int       `json:"inputs"`
	InputBits    int       `json:"input_bits"`
	Outputs      int       `json:"outputs"`
	OutputBits   int       `json:"output_bits"`
	Ops          int       `json:"ops"`
	OpCounts     []OpCount `json:"op_counts"`
	MaxWidth     int       `json:"max_width"`
	Tables       int       `json:"tables"`
	TableEntries int       `json:"table_entries"`
	// Counts are the operations by category (docs/alir.md#what-info-counts).
	Counts Counts `json:"counts"`
	// AdderDepth is the most adders (as Counts counts them) on a path from
	// an input to an output: a constant add, a mux or a quantizer adds no
	// level, a sum of k varying terms ceil(log2 k) levels.
	AdderDepth int `json:"adder_depth"`
	// ConstantOutputs are the outputs no input changes, UnusedInputs the
	// inputs no output depends on.
	ConstantOutputs []ConstantOutput `json:"constant_outputs"`
	UnusedInputs    []int            `json:"unused_inputs"`
	// Cost is the sum of the stored op costs; LatencyMin and LatencyMax
	// range over the stored latencies of the outputs (as CombLogic.cost and
	// CombLogic.latency).
	Cost       float64 `json:"cost"`
	LatencyMin float64 `json:"latency_min"`
	LatencyMax float64 `json:"latency_max"`
	// Estimate is the da4ml cost model applied to the program.
	Estimate Estimate `json:"estimate"`
	// NonPortable lists the operations that rely on a wrap-around only
	// quantizing operations do (see Program.Portability).
	NonPortable []NonPortable `json:"non_portable"`
}

// Estimate is the result of the da4ml cost model: every op it charges
// (opcodes 0, 1 and 4: add, sub, const_add) whose result is n = k+i+f bits
// wide takes ceil(n/carry_size) steps and costs ceil(n/adder_size); a size
// of -1 (or any size below 1) makes each take 1 step or cost 1. A sum
// (opcode 11) of N terms is charged as N-1 such ops of its width that take
// the time of one (alkaid emits 3-term sums for ternary adders). Other
// operations are free and take no time. Latency is the longest path from an
// input to an output. Charged counts the charged ops: the adders and
// constant adds of Counts, but by opcode, as da4ml does (a neg is free, an
// add of two constants is charged).
type Estimate struct {
	CarrySize int32   `json:"carry_size"`
	AdderSize int32   `json:"adder_size"`
	Charged   int     `json:"charged"`
	Cost      float64 `json:"cost"`
	Latency   float64 `json:"latency"`
}

// Info returns a summary of p, which must be valid.
func (p *Program) Info() (*Info, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	in := &Info{
		Dialect: p.Dialect.String(),
		Spec:    p.Spec,
		Inputs:  p.NumInputs(),
		Outputs: p.NumOutputs(),
		Ops:     len(p.Ops),
		Tables:  len(p.Tables),
	}
	counts := map[Opcode]int{}
	for i, op := range p.Ops {
		counts[op.Opcode]++
		w := inf.kif[i].Width()
		in.MaxWidth = max(in.MaxWidth, w)
		if p.Dialect.Info(op.Opcode).Operands == InputIndex {
			in.InputBits += w
		}
		in.Cost += op.Cost
	}
	for c, n := range counts {
		in.OpCounts = append(in.OpCounts, OpCount{c, p.Dialect.OpName(c), n})
	}
	sort.Slice(in.OpCounts, func(a, b int) bool { return in.OpCounts[a].Opcode < in.OpCounts[b].Opcode })
	first := true
	for _, o := range p.Outputs {
		if o.Index < 0 {
			continue
		}
		in.OutputBits += inf.kif[o.Index].Width()
		l := p.Ops[o.Index].Latency
		if first {
			in.LatencyMin, in.LatencyMax, first = l, l, false
		}
		in.LatencyMin, in.LatencyMax = math.Min(in.LatencyMin, l), math.Max(in.LatencyMax, l)
	}
	for _, t := range p.Tables {
		in.TableEntries += len(t.Values)
	}
	in.Estimate = p.estimate(inf)
	sg := p.signals(inf)
	in.Counts = p.counts(sg)
	in.AdderDepth = p.adderDepth(sg)
	in.ConstantOutputs, in.UnusedInputs = p.deadSignals(sg)
	if in.NonPortable, err = p.Portability(); err != nil {
		return nil, err
	}
	if in.NonPortable == nil {
		in.NonPortable = []NonPortable{} // [] in JSON
	}
	return in, nil
}

func (p *Program) estimate(inf *info) Estimate {
	e := Estimate{CarrySize: p.CarrySize, AdderSize: p.AdderSize}
	per := func(n int, size int32) float64 {
		if size < 1 {
			return 1
		}
		return math.Ceil(float64(n) / float64(size))
	}
	at := make([]float64, len(p.Ops))
	for i, op := range p.Ops {
		var t float64
		for _, j := range op.operands(p.Dialect) {
			t = math.Max(t, at[j])
		}
		if p.Dialect.Info(op.Opcode).Adder {
			n := inf.kif[i].Width()
			k := max(1, len(op.Terms)-1)
			e.Charged += k
			e.Cost += float64(k) * per(n, p.AdderSize)
			t += per(n, p.CarrySize)
		}
		at[i] = t
	}
	for _, o := range p.Outputs {
		if o.Index >= 0 {
			e.Latency = math.Max(e.Latency, at[o.Index])
		}
	}
	return e
}

// WriteText prints the summary for people.
func (in *Info) WriteText(w io.Writer) error {
	var b strings.Builder
	if in.Spec > 0 {
		fmt.Fprintf(&b, "dialect:     %s (spec %d)\n", in.Dialect, in.Spec)
	} else {
		fmt.Fprintf(&b, "dialect:     %s\n", in.Dialect)
	}
	fmt.Fprintf(&b, "inputs:      %d (%d bits)\n", in.Inputs, in.InputBits)
	fmt.Fprintf(&b, "outputs:     %d (%d bits)\n", in.Outputs, in.OutputBits)
	fmt.Fprintf(&b, "operations:  %d (widest %d bits)\n", in.Ops, in.MaxWidth)
	for _, c := range in.OpCounts {
		fmt.Fprintf(&b, "  %4d %-14s %d\n", c.Opcode, c.Name, c.Count)
	}
	if in.Tables > 0 {
		fmt.Fprintf(&b, "tables:      %d (%d entries)\n", in.Tables, in.TableEntries)
	}
	fmt.Fprintf(&b, "counts:      %s (docs/alir.md#what-info-counts)\n", in.Counts)
	fmt.Fprintf(&b, "adder depth: %d (the most adders on a path from an input to an output)\n", in.AdderDepth)
	fmt.Fprintf(&b, "cost:        %s (sum of stored op costs)\n", fmtNum(in.Cost))
	fmt.Fprintf(&b, "latency:     %s .. %s (stored, over the outputs)\n", fmtNum(in.LatencyMin), fmtNum(in.LatencyMax))
	e := in.Estimate
	fmt.Fprintf(&b, "cost model:  carry_size %d, adder_size %d: %s, cost %s, latency %s\n",
		e.CarrySize, e.AdderSize, e.ChargedText(), fmtNum(e.Cost), fmtNum(e.Latency))
	if n := len(in.NonPortable); n == 0 {
		fmt.Fprintf(&b, "portable:    yes (every value lies in its operation's type)\n")
	} else {
		fmt.Fprintf(&b, "portable:    no: %s on a wrap-around that only input, relu, quantize and mux do;\n", plural(n, "operation relies", "operations rely"))
		fmt.Fprintf(&b, "             alkaid and this interpreter compute them exactly, RTL sized by the types does not\n")
		const most = 10
		for _, np := range in.NonPortable[:min(n, most)] {
			fmt.Fprintf(&b, "  %s\n", np)
		}
		if n > most {
			fmt.Fprintf(&b, "  ... and %d more\n", n-most)
		}
	}
	for _, line := range in.Warnings() {
		fmt.Fprintf(&b, "warning: %s\n", line)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String lists the counts: always the five categories the docs compare,
// then the others that occur.
func (c Counts) String() string {
	s := fmt.Sprintf("%s, %s, %s, %s, %s", plural(c.Adders, "adder", "adders"),
		plural(c.ConstAdds, "constant add", "constant adds"), plural(c.Muxes, "mux", "muxes"),
		plural(c.Lookups, "lookup", "lookups"), plural(c.Quantizers, "quantizer", "quantizers"))
	if c.Multipliers > 0 {
		s += ", " + plural(c.Multipliers, "multiplier", "multipliers")
	}
	if c.BitOps > 0 {
		s += ", " + plural(c.BitOps, "bit operation", "bit operations")
	}
	if c.Constants > 0 {
		s += ", " + plural(c.Constants, "constant", "constants")
	}
	return s
}

// ChargedText says how many ops the cost model charges.
func (e Estimate) ChargedText() string {
	return plural(e.Charged, "op charged", "ops charged")
}

// Warnings are the lines info prints about signals that died: each
// constant output and each unused input, at most warnLines of each (then
// how many more; the JSON lists them all).
func (in *Info) Warnings() []string {
	const warnLines = 10
	var ws []string
	for k, c := range in.ConstantOutputs {
		switch {
		case k == warnLines:
			ws = append(ws, fmt.Sprintf("... and %d more constant outputs", len(in.ConstantOutputs)-k))
		case k > warnLines:
		case c.Value == nil:
			ws = append(ws, fmt.Sprintf("output %d is a constant", c.Output))
		default:
			ws = append(ws, fmt.Sprintf("output %d is the constant %s", c.Output, fmtNum(*c.Value)))
		}
	}
	for k, j := range in.UnusedInputs {
		switch {
		case k == warnLines:
			ws = append(ws, fmt.Sprintf("... and %d more unused inputs", len(in.UnusedInputs)-k))
		case k > warnLines:
		default:
			ws = append(ws, fmt.Sprintf("input %d is unused", j))
		}
	}
	return ws
}

func fmtNum(v float64) string {
	s, err := pyFloat(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(s, ".0")
}

// plural returns "1 one" or "n many".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Operands returns the slots operation i reads, in order (the operands, then
// a mux's condition; a sum's terms). For drawing and analysis tools.
func (p *Program) Operands(i int) []int32 { return p.Ops[i].operands(p.Dialect) }

// Widths returns the bit width of every operation's result (from its
// interval); p must be valid.
func (p *Program) Widths() ([]int, error) {
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	w := make([]int, len(p.Ops))
	for i := range w {
		w[i] = inf.kif[i].Width()
	}
	return w, nil
}
