// Package dot draws a module as a Graphviz graph, as mlir-opt's
// --view-op-graph: one node per operation, one edge per SSA use (from the
// operation or block argument that defines the value to the operation that
// reads it). Operations with regions (kernels, loops, dais.program) are
// clusters holding their blocks' operations, with a node for the operation
// itself that its operands point to.
//
// dais operations are filled with a color per opcode and show their bit
// width; the edges that carry dais values are labelled with their width in
// bits and drawn thicker for wider values. The output is deterministic: the
// same module gives the same text.
package dot

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// daisColors are the fill colors of the dais opcodes (X11 color names).
var daisColors = map[string]string{
	dais.OpInput:     "lightblue",
	dais.OpOutput:    "lightpink",
	dais.OpTable:     "wheat",
	dais.OpNeg:       "lavender",
	dais.OpAdd:       "palegreen",
	dais.OpSub:       "darkseagreen1",
	dais.OpSum:       "greenyellow",
	dais.OpConstAdd:  "aquamarine",
	dais.OpReLU:      "khaki",
	dais.OpQuantize:  "lightgoldenrod",
	dais.OpConst:     "gray90",
	dais.OpMux:       "orange",
	dais.OpMul:       "salmon",
	dais.OpLookup:    "plum",
	dais.OpBitUnary:  "lightcyan",
	dais.OpBitBinary: "paleturquoise",
}

// Color returns the fill color of a dais operation name ("" for others).
func Color(opName string) string { return daisColors[opName] }

type writer struct {
	w     *bufio.Writer
	ids   map[*ir.Value]string // value -> node that defines it
	nodes int
	clus  int
	edges []string
}

// Write writes m as one Graphviz digraph.
func Write(w io.Writer, m *ir.Module) error {
	d := &writer{w: bufio.NewWriter(w), ids: map[*ir.Value]string{}}
	d.line("digraph G {")
	d.line("  compound=true;")
	d.line("  rankdir=TB;")
	d.line(`  node [shape=box, style="rounded,filled", fillcolor=white, fontname="monospace", fontsize=10];`)
	d.line(`  edge [fontname="monospace", fontsize=8];`)
	for _, op := range m.Body().Ops {
		d.op(op, "  ")
	}
	for _, e := range d.edges {
		d.line("  " + e)
	}
	d.line("}")
	return d.w.Flush()
}

func (d *writer) line(s string) {
	d.w.WriteString(s)
	d.w.WriteByte('\n')
}

func (d *writer) node() string {
	id := fmt.Sprintf("n%d", d.nodes)
	d.nodes++
	return id
}

// op draws op (and, for an op with regions, a cluster of its regions).
func (d *writer) op(op *ir.Operation, ind string) {
	if len(op.Regions) == 0 {
		d.leaf(op, ind)
		return
	}
	d.clus++
	d.line(fmt.Sprintf("%ssubgraph cluster_%d {", ind, d.clus))
	label := op.Name
	if s, ok := op.StringAttr("sym_name"); ok {
		label += " @" + s
	}
	d.line(fmt.Sprintf("%s  label=%s;", ind, quote(label)))
	d.line(ind + "  style=rounded;")
	d.leaf(op, ind+"  ")
	for ri, r := range op.Regions {
		for bi, b := range r.Blocks {
			for ai, a := range b.Args {
				id := d.node()
				d.ids[a] = id
				name := fmt.Sprintf("arg %d", ai)
				if len(op.Regions) > 1 || len(r.Blocks) > 1 {
					name = fmt.Sprintf("region %d block %d arg %d", ri, bi, ai)
				}
				if a.Name != "" {
					name = "%" + a.Name
				}
				d.line(fmt.Sprintf("%s  %s [shape=ellipse, style=filled, fillcolor=gray95, label=%s];", ind, id,
					quote(name+"\n"+typeStr(a.Type))))
			}
			for _, o := range b.Ops {
				d.op(o, ind+"  ")
			}
		}
	}
	d.line(ind + "}")
}

// leaf draws the node of op and records its incoming edges.
func (d *writer) leaf(op *ir.Operation, ind string) {
	id := d.node()
	for _, r := range op.Results {
		d.ids[r] = id
	}
	label := op.Name
	attrs := ""
	if strings.HasPrefix(op.Name, "dais.") {
		label = strings.TrimPrefix(op.Name, "dais.")
		if len(op.Results) == 1 {
			if ft, ok := op.Results[0].Type.(*dais.FixedType); ok {
				label += "\n" + bits(dais.Width(ft))
			}
		}
		if i, ok := op.IntAttr("index"); ok && op.Name == dais.OpInput {
			label += fmt.Sprintf("\ninput %d", i)
		}
		if c := daisColors[op.Name]; c != "" {
			attrs = ", fillcolor=" + c
		}
	} else {
		for _, r := range op.Results {
			label += "\n: " + typeStr(r.Type)
		}
	}
	d.line(fmt.Sprintf("%s%s [label=%s%s];", ind, id, quote(label), attrs))
	for k, v := range op.Operands {
		if v == nil {
			continue
		}
		from, ok := d.ids[v]
		if !ok { // defined later (a graph region) or outside: skip
			continue
		}
		e := fmt.Sprintf("%s -> %s", from, id)
		var ea []string
		if ft, ok := v.Type.(*dais.FixedType); ok {
			w := dais.Width(ft)
			ea = append(ea, fmt.Sprintf("label=\"%d\"", w), fmt.Sprintf("weight=%d", max(1, w)),
				fmt.Sprintf("penwidth=%.1f", penWidth(w)))
		}
		if len(op.Operands) > 1 {
			ea = append(ea, fmt.Sprintf("headlabel=\"%d\"", k), "labelfontsize=7", "labelfontcolor=gray40")
		}
		if len(ea) > 0 {
			e += " [" + strings.Join(ea, ", ") + "]"
		}
		d.edges = append(d.edges, e+";")
	}
}

// penWidth grows with the width in bits, from 1 to 6.
func penWidth(w int) float64 {
	return min(6, 1+float64(w)/8)
}

func typeStr(t ir.Type) string {
	if t == nil {
		return "<nil>"
	}
	return t.String()
}

// quote makes s a Graphviz string: quotes and backslashes escaped, newlines
// as \n (centered lines).
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func bits(n int) string {
	if n == 1 {
		return "1 bit"
	}
	return fmt.Sprintf("%d bits", n)
}
