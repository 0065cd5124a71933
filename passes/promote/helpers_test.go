package promote

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

// kb builds a one-kernel module for pass tests.
type kb struct {
	t    *testing.T
	m    *ir.Module
	b    *ir.Builder
	args []*ir.Value
	line int
}

// newKB makes a module with the given typing style ("" leaves it unset) and a
// kernel @k whose arguments have the given types.
func newKB(t *testing.T, style string, args ...string) *kb {
	t.Helper()
	m := ir.NewModule(ir.Location{File: "test.otir", Line: 1, Col: 1})
	if style != "" {
		m.Op.SetAttr("otir.typing_style", &ir.StringAttr{Value: style})
	}
	mb := ir.NewBuilder(m.Body())
	var ts []ir.Type
	for _, a := range args {
		ts = append(ts, ir.MustParseType(a))
	}
	_, body := otir.Kernel(mb, "k", ts, nil)
	k := &kb{t: t, m: m, b: ir.NewBuilder(body), args: body.Args, line: 1}
	return k
}

func (k *kb) loc() ir.Location {
	k.line++
	return ir.Location{File: "test.otir", Line: k.line, Col: 3}
}

// bin adds a binary op with an explicit result type ("" infers it with the
// module's style, as the parser does for `: T1, T2`).
func (k *kb) bin(name string, a, b *ir.Value, result string) *ir.Value {
	k.t.Helper()
	k.b.Loc = k.loc()
	return k.b.Binary(name, a, b, k.resultType(name, result, a, b))
}

func (k *kb) un(name string, a *ir.Value, result string) *ir.Value {
	k.t.Helper()
	k.b.Loc = k.loc()
	return k.b.Unary(name, a, k.resultType(name, result, a))
}

func (k *kb) cmp(pred string, a, b *ir.Value) *ir.Value {
	k.t.Helper()
	k.b.Loc = k.loc()
	rt, err := typing.InferCmp(otir.TypingStyle(k.m), "otir.cmp", pred, []ir.Type{a.Type, b.Type})
	if err != nil {
		k.t.Fatalf("InferCmp: %v", err)
	}
	return otir.Cmp(k.b, pred, a, b, rt)
}

func (k *kb) resultType(name, result string, vs ...*ir.Value) ir.Type {
	k.t.Helper()
	if result != "" {
		return ir.MustParseType(result)
	}
	var ts []ir.Type
	for _, v := range vs {
		ts = append(ts, v.Type)
	}
	rt, err := typing.InferResult(otir.TypingStyle(k.m), name, ts)
	if err != nil {
		k.t.Fatalf("InferResult(%s): %v", name, err)
	}
	return rt
}

// kernelText prints the kernel's body operations, one per line, trimmed.
func (k *kb) kernelText() string {
	var lines []string
	for _, l := range strings.Split(k.m.String(), "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "%") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// run applies the pass with the module's style.
func (k *kb) run() error {
	k.t.Helper()
	st, err := typing.ParseStyle(otir.TypingStyle(k.m))
	if err != nil {
		k.t.Fatal(err)
	}
	return Run(k.m, st)
}

func typesOf(t *testing.T, names []string) []ir.Type {
	t.Helper()
	var ts []ir.Type
	for _, n := range names {
		ts = append(ts, ir.MustParseType(n))
	}
	return ts
}
