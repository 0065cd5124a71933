package typing

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// NoRuleError is Allo's diagnostic for an operator/type combination the
// style's table does not cover. Its text is Allo's, with Allo's long type
// names: `No hls type promotion rule for operator 'add' with operand types
// index, float32` (`operand type X` for one operand).
type NoRuleError struct {
	Style Style
	Key   string
	Types []ir.Type
}

func (e *NoRuleError) Error() string {
	names := make([]string, len(e.Types))
	for i, t := range e.Types {
		names[i] = AlloName(t)
	}
	desc := "operand types " + strings.Join(names, ", ")
	if len(names) == 1 {
		desc = "operand type " + names[0]
	}
	return fmt.Sprintf("No %s type promotion rule for operator '%s' with %s", e.Style, e.Key, desc)
}

// Promote is Allo's TypeRuleTable.promote: the promoted element type of an
// operator applied to the given element types (one for a unary operator, two
// or more for a binary one; more than two describe an expression such as
// a + b - c). signs gives each term's sign for add/sub expressions (nil: all
// positive; the n-ary rule makes the result signed when a term is subtracted).
//
// The hls style first asks the n-ary rule (integer add, sub and mul only);
// otherwise, and always in cpp, the types fold pairwise from the left. For
// comparisons the result is the common type the operands are converted to
// (the comparison's value is bool; see ResultKey).
func Promote(style Style, key string, ts []ir.Type, signs []int) (ir.Type, error) {
	if len(ts) == 0 {
		return nil, fmt.Errorf("type promotion for operator '%s' needs at least one operand", key)
	}
	if signs != nil && len(signs) != len(ts) {
		return nil, fmt.Errorf("operator '%s' has %d terms but %d signs", key, len(ts), len(signs))
	}
	if _, ok := tables[style]; !ok {
		return nil, fmt.Errorf("unknown typing style '%s' (expected \"hls\" or \"cpp\")", style)
	}
	res, ok := promote(style, key, ts, signs)
	if !ok {
		return nil, &NoRuleError{Style: style, Key: key, Types: append([]ir.Type(nil), ts...)}
	}
	if it, isI := res.(*ir.IntType); isI && it.Width > ir.MaxIntWidth {
		return nil, fmt.Errorf("operator '%s' on %s promotes to a %d-bit integer, wider than the %d bits the toolchain supports",
			key, typeNames(ts), it.Width, ir.MaxIntWidth)
	}
	return res, nil
}

func promote(style Style, key string, ts []ir.Type, signs []int) (ir.Type, bool) {
	if style == HLS {
		if t, ok := hlsNary(key, ts, signs); ok {
			return t, true
		}
	}
	if len(ts) == 1 {
		return lookup(style, key, ts[0])
	}
	acc := ts[0]
	for _, t := range ts[1:] {
		next, ok := lookup(style, key, acc, t)
		if !ok {
			return nil, false
		}
		acc = next
	}
	return acc, true
}

func typeNames(ts []ir.Type) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.String()
	}
	return strings.Join(names, ", ")
}
