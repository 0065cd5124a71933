package dais

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/dot"
)

// dotColors are the fill colors of the dais opcodes in --emit=dot (X11
// color names).
var dotColors = map[string]string{
	OpInput:     "lightblue",
	OpOutput:    "lightpink",
	OpTable:     "wheat",
	OpNeg:       "lavender",
	OpAdd:       "palegreen",
	OpSub:       "darkseagreen1",
	OpSum:       "greenyellow",
	OpConstAdd:  "aquamarine",
	OpReLU:      "khaki",
	OpQuantize:  "lightgoldenrod",
	OpConst:     "gray90",
	OpMux:       "orange",
	OpMul:       "salmon",
	OpLookup:    "plum",
	OpBitUnary:  "lightcyan",
	OpBitBinary: "paleturquoise",
}

// The dais dialect's style in ir/dot: a node is its opcode, its result's
// width in bits and an input's index, filled with the opcode's color; an
// edge carrying a dais value is labelled with its width.
func init() {
	dot.Register("dais", dot.Style{Node: dotNode, Width: dotWidth})
}

func dotNode(op *ir.Operation) (label, color string) {
	label = strings.TrimPrefix(op.Name, "dais.")
	if len(op.Results) == 1 {
		if w, ok := dotWidth(op.Results[0].Type); ok {
			label += "\n" + dot.Bits(w)
		}
	}
	if i, ok := op.IntAttr("index"); ok && op.Name == OpInput {
		label += fmt.Sprintf("\ninput %d", i)
	}
	return label, dotColors[op.Name]
}

func dotWidth(t ir.Type) (int, bool) {
	if ft, ok := t.(*FixedType); ok {
		return Width(ft), true
	}
	return 0, false
}
