package ir

import (
	"strings"
	"testing"
)

// TestFormatErrors checks that a format naming what the record does not
// declare, or malformed, fails to compile, and that RegisterOp panics on it.
func TestFormatErrors(t *testing.T) {
	base := OpDef{Name: "testfmt.op",
		Operands: []ArgDef{{Name: "lhs"}, {Name: "rhs"}},
		Results:  []ArgDef{{Name: "result"}},
		Attrs:    []AttrDef{{Name: "kind", Kind: AttrString, Enum: []string{"a"}}},
	}
	for _, c := range []struct{ format, want string }{
		{"$lhs `,` $nope attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)", "'$nope' is not a declared operand, attribute or region"},
		{"$lhs `,` $rhs `:` type($lhs) `,` type($bad) `->` type($result)", "'$bad' in type() is not a declared operand or result"},
		{"$lhs `:` type($lhs) `->` type($result)", "operand '$rhs' must appear exactly once"},
		{"$lhs `,` $rhs `:` type($lhs) `->` type($result)", "the type of operand '$rhs' is neither written nor buildable"},
		{"$lhs `,` $rhs `:` type(operands)", "the type of result 'result' is neither written, buildable nor inferred"},
		{"$lhs `,` $rhs custom<NoSuchDirective>($kind) `:` functional-type(operands, results)", "unknown custom directive 'NoSuchDirective'"},
		{"$lhs `,` $rhs (`kind` $kind)? `:` functional-type(operands, results)", "optional group has no anchor"},
		{"$lhs `,` $rhs `:` functional-type(operands, results", "expected ')'"},
		{"$lhs `,` $rhs `unterminated", "unterminated literal"},
	} {
		d := base
		d.Format = c.format
		_, err := CompileFormat(&d)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("format %q: got %v, want %q", c.format, err, c.want)
		}
	}
	d := base
	d.Format = "$lhs `,` $undeclared"
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "'$undeclared' is not a declared") {
				t.Errorf("RegisterOp: got panic %v", r)
			}
		}()
		RegisterOp(d)
	}()
	if LookupOp(d.Name) != nil {
		t.Errorf("a record whose format fails was registered")
	}
	// A correct format compiles to its elements.
	d = base
	d.Format = "`kind` `(` $kind `)` $lhs `,` $rhs attr-dict `:` functional-type(operands, results)"
	f, err := CompileFormat(&d)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Elems) != 10 || f.Elems[2].Kind != ElemAttr || f.Elems[9].Kind != ElemFunctionalType {
		t.Errorf("compiled %+v", f.Elems)
	}
}
