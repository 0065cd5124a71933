package dais

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
)

// The verifier checks a dense program again exactly when what it proved
// has changed: an unchanged program, or one whose annotations alone
// changed, is not analysed again; any other change in place is, and a
// program made not portable is reported each time.
func TestVerifiedDense(t *testing.T) {
	prog := build(progAttrs(2), func(b *ir.Builder) {
		x, y := input(b, 0), input(b, 1)
		s := b.Create(OpAdd, []*ir.Value{x, y}, []ir.Type{FixedOf(-256, 254, 1)}, ir.Attrs{{Name: "shift", Value: ir.I64(0)}}).Results[0]
		output(b, s)
	})
	d, err := Load(prog)
	if err != nil {
		t.Fatal(err)
	}
	SetDense(prog, d)
	check := func(what string, wantErr bool) {
		t.Helper()
		err := checkOp(prog, nil)
		if (err != nil) != wantErr {
			t.Fatalf("%s: checkOp = %v, want an error: %v", what, err, wantErr)
		}
		if err != nil && !strings.Contains(err.Error(), "does not wrap") {
			t.Fatalf("%s: %v", what, err)
		}
	}
	check("first", false)
	first := d.verified
	if first == nil || !first.same(d.P) {
		t.Fatal("a portable program is not recorded as verified")
	}
	d.P.Ops[2].Latency, d.P.Ops[2].Cost = 5, 7
	check("annotated", false)
	if d.verified != first {
		t.Error("a program whose annotations alone changed was analysed again")
	}
	// The add's type narrowed in place: no longer portable.
	d.P.Ops[2].QInt = alir.QInterval{Min: -128, Max: 127, Step: 1}
	if first.same(d.P) {
		t.Fatal("a changed type compares the same")
	}
	check("narrowed", true)
	check("narrowed again", true)
	d.P.Ops[2].QInt = alir.QInterval{Min: -256, Max: 254, Step: 1}
	check("restored", false)
	// Every other field the analysis reads is compared.
	for name, change := range map[string]func(p *alir.Program){
		"operand": func(p *alir.Program) { p.Ops[2].ID1 = 0 },
		"output":  func(p *alir.Program) { p.Outputs[0].Shift = 1 },
		"shift":   func(p *alir.Program) { p.InShifts[0] = 1 },
		"terms":   func(p *alir.Program) { p.Ops[2].Terms = []alir.Term{{ID: 0}} },
		"tables":  func(p *alir.Program) { p.Tables = []alir.Table{{Values: []int32{1}}} },
	} {
		q := *d.P
		q.Ops = append([]alir.Op(nil), d.P.Ops...)
		q.Outputs = append([]alir.Output(nil), d.P.Outputs...)
		q.InShifts = append([]int32(nil), d.P.InShifts...)
		change(&q)
		if d.verified.same(&q) {
			t.Errorf("%s: a changed program compares the same", name)
		}
	}
}
