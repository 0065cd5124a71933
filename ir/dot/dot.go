// Package dot draws a module as a Graphviz graph, as mlir-opt's
// --view-op-graph: one node per operation, one edge per SSA use (from the
// operation or block argument that defines the value to the operation that
// reads it). Operations with regions (kernels, loops, dais.program) are
// clusters holding their blocks' operations, with a node for the operation
// itself that its operands point to.
//
// It is another printer of the IR, beside ir's text printer, and knows no
// dialect: a dialect that wants its operations drawn its own way registers
// a Style (the dais dialect does, in lower/dais/dot.go: a fill color per
// opcode, bit widths on nodes and edges, edges thicker for wider values).
// The output is deterministic: the same module gives the same text.
package dot

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// Style is how one dialect's operations and values are drawn.
type Style struct {
	// Node is the label of op's node and its fill color (an X11 color
	// name; "" for the default).
	Node func(op *ir.Operation) (label, color string)
	// Width is the width in bits of a value of type t, ok false for a type
	// the dialect does not draw: an edge carrying a value of known width is
	// labelled with it and drawn thicker for wider values.
	Width func(t ir.Type) (bits int, ok bool)
}

// styles are the registered styles by dialect name, and dialects their
// names in order (so that width asks them in a fixed order).
var (
	styles   = map[string]Style{}
	dialects []string
)

// Register gives the operations of a dialect (the prefix of their names,
// "dais" for dais.add) and the types it knows its style. Dialects register
// at initialisation, as they register their operations.
func Register(dialect string, s Style) {
	if _, ok := styles[dialect]; !ok {
		i, _ := slices.BinarySearch(dialects, dialect)
		dialects = slices.Insert(dialects, i, dialect)
	}
	styles[dialect] = s
}

// width is the width in bits of a value of type t, by the first style (in
// dialect name order) that knows it.
func width(t ir.Type) (int, bool) {
	for _, name := range dialects {
		if f := styles[name].Width; f != nil {
			if w, ok := f(t); ok {
				return w, true
			}
		}
	}
	return 0, false
}

// Bits is a width as a node label shows it: "1 bit", "8 bits".
func Bits(n int) string {
	if n == 1 {
		return "1 bit"
	}
	return fmt.Sprintf("%d bits", n)
}

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
	dialect, _, _ := strings.Cut(op.Name, ".")
	if st, ok := styles[dialect]; ok && st.Node != nil {
		var color string
		label, color = st.Node(op)
		if color != "" {
			attrs = ", fillcolor=" + color
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
		if w, ok := width(v.Type); ok {
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
