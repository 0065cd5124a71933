package onnximport

import "github.com/otir-dev/otir/internal/onnxpb"

// An operator is one supported ONNX operator: its signature (the inputs it
// takes, which of them must be constants, the attributes it reads with their
// kinds) and its translation. translate checks a node against the signature
// in one place, with one set of messages, before the translation runs; the
// translation then reads its inputs from the importer's args and consts.
type operator struct {
	// attrs are the attributes the operator reads, with their kinds (any
	// other attribute, or one of another kind, is an error); needAttrs
	// must be given.
	attrs     attrs
	needAttrs []string
	// until are the attributes of attrs that ONNX removed, each with the
	// opset that removed it (opset 6's legacy broadcast, is_test).
	until map[string]int64
	// min and max bound the number of inputs (max < 0: any number, each
	// present); from opset later.opset on, at least later.min.
	min, max int
	later    minFrom
	// in are the rules of particular inputs; an input below min is
	// required and may hold any value unless a rule says otherwise.
	in  []input
	run func(im *importer) error
}

// minFrom raises an operator's least number of inputs from an opset on
// (Slice's starts and ends became inputs at opset 10).
type minFrom struct {
	opset int64
	min   int
}

// An input is the rule of one input of an operator.
type input struct {
	at   int    // its position
	what string // its name in messages ("the shape (input 'x') ...")
	is   valueKind
	need bool // it must be present (from opset since on)
	// since is the opset from which the input exists (0: always). Before
	// it the input must be absent when it was the attribute attr then, and
	// is not read otherwise; from it on, the attribute attr must be absent.
	since int64
	attr  string
	// arity restricts the rule to nodes of that many inputs (0: any):
	// Trunc's input 4 is the output scale of version 2's six inputs and
	// the output bit width of version 1's five.
	arity int
}

// valueKind is what an input must hold.
type valueKind int

const (
	anyValue   valueKind = iota
	constValue           // an initializer or a Constant node (or a folded one)
	paramValue           // a constant, or a QONNX quantizer of one (its folded values)
)

// attrs are an operator's attributes by name, with their kinds.
type attrs map[string]onnxpb.AttributeProto_AttributeType

// The attribute kinds of the operators' tables.
const (
	kindInt    = onnxpb.AttributeProto_INT
	kindInts   = onnxpb.AttributeProto_INTS
	kindFloat  = onnxpb.AttributeProto_FLOAT
	kindFloats = onnxpb.AttributeProto_FLOATS
	kindString = onnxpb.AttributeProto_STRING
	kindTensor = onnxpb.AttributeProto_TENSOR
)

// checkSignature checks the node against op's signature: the number of
// inputs and outputs, the attributes op requires, then each input in order
// (the attribute it replaced absent, defined before the node, present when
// required, a constant when it must be one). It sets args to the node's
// inputs (nil for an absent one) and consts to the values of the constant
// ones.
func (im *importer) checkSignature(op operator) error {
	minIn := op.min
	if op.later.opset != 0 && im.opset >= op.later.opset {
		minIn = op.later.min
	}
	if err := im.checkArity(minIn, op.max); err != nil {
		return err
	}
	for _, a := range op.needAttrs {
		if im.attr(a) == nil {
			return im.errorf("the attribute '%s' is missing (QONNX's %s requires it)", a, im.node.GetOpType())
		}
	}
	n := len(im.node.GetInput())
	im.args, im.consts = make([]*value, n), make([]*constant, n)
	rules := make(map[int]input, len(op.in))
	last := min(n, minIn) - 1
	if op.max < 0 {
		last = n - 1
	}
	for _, r := range op.in {
		if r.arity == 0 || r.arity == n {
			rules[r.at] = r
			last = max(last, r.at)
		}
	}
	for i := 0; i <= last; i++ {
		r, ruled := rules[i]
		if !ruled && i >= minIn && op.max >= 0 {
			continue
		}
		if r.since != 0 && r.attr != "" {
			if err := im.movedToInput(r.attr, i, r.since); err != nil {
				return err
			}
		}
		if r.since != 0 && im.opset < r.since {
			continue
		}
		v, err := im.input(i)
		if err != nil {
			return err
		}
		if v == nil {
			switch {
			case r.need && r.what != "":
				return im.errorf("the %s (input #%d) is missing", r.what, i)
			case r.need || !ruled:
				return im.errorf("input #%d is missing", i)
			}
			continue
		}
		im.args[i] = v
		switch {
		case r.is == paramValue && v.folded != nil:
			im.consts[i] = v.folded
		case r.is != anyValue && v.c == nil:
			return im.errorf("the %s (input '%s') must be a constant (an initializer or a Constant node)", r.what, v.name)
		case r.is != anyValue:
			im.consts[i] = v.c
		}
	}
	return nil
}

// checkArity checks the number of inputs (max < 0: any) and that only the
// first output is used.
func (im *importer) checkArity(minIn, maxIn int) error {
	n := len(im.node.GetInput())
	if n < minIn || maxIn >= 0 && n > maxIn {
		return im.errorf("has %d inputs", n)
	}
	for i, o := range im.node.GetOutput() {
		if i > 0 && o != "" {
			return im.errorf("output #%d ('%s') is not supported", i, o)
		}
	}
	return nil
}

// input is the node's input i (nil for an absent optional one).
func (im *importer) input(i int) (*value, error) {
	ins := im.node.GetInput()
	if i >= len(ins) || ins[i] == "" {
		return nil, nil
	}
	v, ok := im.vals[ins[i]]
	if !ok {
		return nil, im.errorf("input '%s' is not defined before the node", ins[i])
	}
	return v, nil
}

// arg is the node's input i as checkSignature read it (nil when absent).
func (im *importer) arg(i int) *value {
	if i < len(im.args) {
		return im.args[i]
	}
	return nil
}

// constArg is the value of the node's constant input i (nil when absent).
func (im *importer) constArg(i int) *constant {
	if i < len(im.consts) {
		return im.consts[i]
	}
	return nil
}
