package tiles

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/passes"
	"github.com/otir-dev/otir/passes/verify"
)

// attrNames reads a program's input_args or output_args.
func attrNames(prog *ir.Operation, name string) string {
	arr, _ := prog.Attr(name).(*ir.ArrayAttr)
	var ns []string
	if arr != nil {
		for _, e := range arr.Elems {
			ns = append(ns, e.(*ir.StringAttr).Value)
		}
	}
	return strings.Join(ns, ",")
}

// The program's inputs are the arguments whose initial contents the kernel
// observes, its outputs the #global arguments it writes (argument order,
// row-major); an in-place update is both, and the unwritten elements of a
// written argument read their inputs.
func TestInputOutputMapping(t *testing.T) {
	cases := []struct {
		name, src       string
		inputs, outputs string
		nIn, nOut       int
	}{
		{"read and write", `otir.kernel @k(%a: !otir.tile<4xi8, #global>, %unused: !otir.tile<2xi8, #global>, %c: !otir.tile<4xi8, #global>) {
  %v = otir.load %a : !otir.tile<4xi8, #global> -> !otir.tile<4xi8, #private>
  otir.store %v, %c : !otir.tile<4xi8, #private>, !otir.tile<4xi8, #global>
  otir.return
}`, "a", "c", 4, 4},
		{"in place, partial", `otir.kernel @k(%a: !otir.tile<4xi8, #global>) {
  %s = otir.extract_slice %a[1] [2] [1] : !otir.tile<4xi8, #global> to !otir.tile<2xi8, #global>
  %v = otir.load %s : !otir.tile<2xi8, #global> -> !otir.tile<2xi8, #private>
  %w = otir.add %v, %v : !otir.tile<2xi8, #private>
  otir.store %w, %s : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}`, "a", "a", 4, 4},
		{"scalar argument", `otir.kernel @k(%n: i8, %c: !otir.tile<2xi8, #global>) {
  %z = otir.constant dense<[0, 1]> : !otir.tile<2xi8, #private>
  %t = otir.add %z, %n : (!otir.tile<2xi8, #private>, i8) -> !otir.tile<2xi8, #private>
  otir.store %t, %c : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}`, "n", "c", 1, 2},
		{"constant output", `otir.kernel @k(%c: !otir.tile<3xi8, #global>) {
  %z = otir.constant dense<[0, 5, 0]> : !otir.tile<3xi8, #private>
  otir.store %z, %c : !otir.tile<3xi8, #private>, !otir.tile<3xi8, #global>
  otir.return
}`, "", "c", 0, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog, err := lowerText(t, c.src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := dais.ToALIR(prog)
			if err != nil {
				t.Fatal(err)
			}
			if got := attrNames(prog, "input_args"); got != c.inputs {
				t.Errorf("input_args %q, want %q", got, c.inputs)
			}
			if got := attrNames(prog, "output_args"); got != c.outputs {
				t.Errorf("output_args %q, want %q", got, c.outputs)
			}
			if p.NumInputs() != c.nIn || p.NumOutputs() != c.nOut {
				t.Errorf("%d inputs, %d outputs; want %d, %d", p.NumInputs(), p.NumOutputs(), c.nIn, c.nOut)
			}
		})
	}
}

// Constant zero outputs use ALIR's -1 index; nothing the outputs do not
// need stays in the program.
func TestOutputsAndDeadSlots(t *testing.T) {
	prog, err := lowerText(t, `otir.kernel @k(%a: !otir.tile<2xi8, #global>, %c: !otir.tile<2xi8, #global>) {
  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<2xi8, #private>
  %dead = otir.mul %v, %v : !otir.tile<2xi8, #private>
  %z = otir.constant dense<[0, 3]> : !otir.tile<2xi8, #private>
  otir.store %z, %c : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != 1 || p.Ops[0].Opcode != 5 || p.Outputs[0].Index != -1 || p.Outputs[1].Index != 0 {
		t.Errorf("ops %+v outputs %+v", p.Ops, p.Outputs)
	}
}

// The pass replaces every kernel by its program, reports every kernel it
// cannot lower, and its result verifies.
func TestPass(t *testing.T) {
	src := `otir.kernel @one(%a: !otir.tile<2xi8, #global>) {
  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<2xi8, #private>
  %w = otir.neg %v : !otir.tile<2xi8, #private>
  otir.store %w, %a : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}
otir.kernel @two(%a: !otir.tile<2xi8, #global>) {
  otir.return
}`
	m := parseText(t, src)
	if err := Lower(m, Options{}); err != nil {
		t.Fatal(err)
	}
	ps := dais.Programs(m)
	if len(ps) != 2 || len(otir.Kernels(m)) != 0 {
		t.Fatalf("%d programs, %d kernels left", len(ps), len(otir.Kernels(m)))
	}
	if l := verify.Verify(m); l.HasErrors() {
		t.Fatalf("verify: %v", l)
	}
	bad := parseText(t, `otir.kernel @f(%a: !otir.tile<2xf32, #global>) {
  %v = otir.load %a : !otir.tile<2xf32, #global> -> !otir.tile<2xf32, #private>
  otir.return
}
otir.kernel @g(%a: !otir.tile<2xi8, #global>, %n: index) {
  %s = otir.extract_slice %a[%n] [1] [1] : !otir.tile<2xi8, #global> to !otir.tile<1xi8, #global>
  otir.return
}`)
	err := Lower(bad, Options{})
	l, ok := err.(diag.List)
	if !ok || len(l) != 2 {
		t.Fatalf("got %v, want two diagnostics", err)
	}
}

// The pass's options are checked against their declarations.
func TestPassOptions(t *testing.T) {
	for _, c := range []struct {
		opts map[string]string
		ok   bool
	}{
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "0", "adder-depth-slack": "0"}, true},
		{map[string]string{"max-ops": "0", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "0", "adder-depth-slack": "0"}, false},
		{map[string]string{"max-ops": "x", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "0", "adder-depth-slack": "0"}, false},
		{map[string]string{"max-ops": "10", "carry-size": "q", "adder-size": "-1", "max-adder-depth": "0", "adder-depth-slack": "0"}, false},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "-1", "adder-depth-slack": "0"}, true},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "3", "adder-depth-slack": "0"}, true},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "-2", "adder-depth-slack": "0"}, false},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "deep", "adder-depth-slack": "0"}, false},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "-1", "adder-depth-slack": "2"}, true},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "-1", "adder-depth-slack": "-1"}, false},
		{map[string]string{"max-ops": "10", "carry-size": "-1", "adder-size": "-1", "max-adder-depth": "-1", "adder-depth-slack": "61"}, false},
	} {
		_, err := passes.Spec("lower-tiles", c.opts)
		if (err == nil) != c.ok {
			t.Errorf("%v: error %v", c.opts, err)
		}
	}
}

// The cost model: each adder costs ceil(bits/adder-size) and takes
// ceil(bits/carry-size) steps after its latest operand.
func TestCostModel(t *testing.T) {
	prog, err := lowerText(t, `otir.kernel @k(%a: !otir.tile<2xi16, #global>, %c: !otir.tile<1xi32, #global>) {
  %v = otir.load %a : !otir.tile<2xi16, #global> -> !otir.tile<2xi16, #private>
  %x = otir.extract_slice %v[0] [1] [1] : !otir.tile<2xi16, #private> to !otir.tile<1xi16, #private>
  %y = otir.extract_slice %v[1] [1] [1] : !otir.tile<2xi16, #private> to !otir.tile<1xi16, #private>
  %s = otir.add %x, %y : (!otir.tile<1xi16, #private>, !otir.tile<1xi16, #private>) -> !otir.tile<1xi32, #private>
  %t = otir.add %s, %x : (!otir.tile<1xi32, #private>, !otir.tile<1xi16, #private>) -> !otir.tile<1xi32, #private>
  otir.store %t, %c : !otir.tile<1xi32, #private>, !otir.tile<1xi32, #global>
  otir.return
}`, Options{CarrySize: 4, AdderSize: 8})
	if err != nil {
		t.Fatal(err)
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		t.Fatal(err)
	}
	// 17-bit then 18-bit adders: costs 3 and 3, latencies 5 and 5+5.
	got := [2][2]float64{{p.Ops[2].Cost, p.Ops[2].Latency}, {p.Ops[3].Cost, p.Ops[3].Latency}}
	if got != [2][2]float64{{3, 5}, {3, 10}} {
		t.Errorf("cost/latency %v, want [[3 5] [3 10]]", got)
	}
	in, err := p.Info()
	if err != nil {
		t.Fatal(err)
	}
	if in.Cost != in.Estimate.Cost || in.LatencyMax != in.Estimate.Latency {
		t.Errorf("stored cost %v latency %v differ from the estimate %+v", in.Cost, in.LatencyMax, in.Estimate)
	}
}

// An uninitialised read inside a data-dependent branch is not an error:
// the branch may never run (the executor fails only if it does).
func TestUninitialisedReadInBranch(t *testing.T) {
	_, err := lowerText(t, `otir.kernel @k(%s: i8, %c: !otir.tile<2xi8, #global>) {
  %w = otir.alloc() : !otir.tile<2xi8, #workgroup>
  %z = otir.constant 0 : i8
  %p = otir.cmp kind(slt) %s, %z : (i8, i8) -> i1
  scf.if %p {
    %v = otir.load %w : !otir.tile<2xi8, #workgroup> -> !otir.tile<2xi8, #private>
    otir.store %v, %c : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  }
  otir.return
}`, Options{})
	if err != nil {
		t.Fatal(err)
	}
}
