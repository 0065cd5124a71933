package exec

import (
	"math/big"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestBufferAPI(t *testing.T) {
	if _, err := FromInts(ir.Int(7, true), []int64{2}, 63, 64); err == nil || !strings.Contains(err.Error(), "64 is not a value of i7") {
		t.Fatalf("FromInts out of range: %v", err)
	}
	if _, err := FromInts(ir.Int(8, false), []int64{3}, 1, 2); err == nil {
		t.Fatal("FromInts with too few values succeeded")
	}
	b := bigs(t, "2xu64", "18446744073709551615", "1")
	if b.Bigs == nil || b.BigAt(0).String() != "18446744073709551615" {
		t.Fatalf("u64 storage: %+v", b)
	}
	if b.String() != "[18446744073709551615, 1]" {
		t.Fatalf("String = %s", b)
	}
	c := b.Clone()
	c.Bigs[1] = big.NewInt(2)
	if b.Equal(c) || !b.Equal(b.Clone()) {
		t.Fatal("Clone/Equal")
	}
	if got := ints(t, "2x2xi1", 1, 0, 0, 1).String(); got != "[[true, false], [false, true]]" {
		t.Fatalf("bool String = %s", got)
	}
	bad := []struct {
		b   *Buffer
		msg string
	}{
		{&Buffer{Shape: []int64{2}, Elem: ir.Int(8, true), Ints: []int64{1}}, "holds 1 elements, not 2"},
		{&Buffer{Shape: []int64{1}, Elem: ir.Int(8, true), Ints: []int64{200}}, "element 0 (200) is not a value of i8"},
		{&Buffer{Shape: []int64{3}, Elem: ir.Int(8, false), Ints: []int64{0, 255, -1}}, "element 2 (-1) is not a value of u8"},
		{&Buffer{Shape: []int64{2}, Elem: ir.Bool(), Ints: []int64{1, 2}}, "element 1 (2) is not a value of i1"},
		{&Buffer{Shape: []int64{2}, Elem: ir.Int(8, true), Ints: []int64{-128, -129}}, "element 1 (-129) is not a value of i8"},
		{&Buffer{Shape: []int64{1}, Elem: ir.Int(63, false), Ints: []int64{-1}}, "element 0 (-1) is not a value of u63"},
		{&Buffer{Shape: []int64{1}, Elem: ir.Int(8, true), Floats: []float64{1}}, "stores its elements in Ints"},
		{&Buffer{Shape: []int64{1}, Elem: ir.Float(ir.F16), Floats: []float64{0.1}}, "is not a value of f16"},
		{&Buffer{Shape: []int64{0}, Elem: ir.Float(ir.F16), Floats: []float64{}}, "dimension 0 is not positive"},
		{&Buffer{Elem: ir.Token()}, "element type must be"},
	}
	for _, c := range bad {
		if err := c.b.Validate(); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Validate(%+v) = %v, want %q", c.b, err, c.msg)
		}
	}
	for _, b := range []*Buffer{
		{Shape: []int64{3}, Elem: ir.Int(8, false), Ints: []int64{0, 255, 7}},
		{Shape: []int64{2}, Elem: ir.Int(8, true), Ints: []int64{-128, 127}},
		{Shape: []int64{2}, Elem: ir.Int(63, false), Ints: []int64{0, 1<<63 - 1}},
		{Shape: []int64{2}, Elem: ir.Index(), Ints: []int64{-1 << 63, 1<<63 - 1}},
	} {
		if err := b.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v, want nil", b, err)
		}
	}
}

// TestWrittenThroughControlFlow: a #global argument chosen by scf.if and
// carried through scf.for is written; one only read is not.
func TestWrittenThroughControlFlow(t *testing.T) {
	src := strings.NewReplacer("G4", i8x4, "P4", priv4).Replace(`
otir.kernel @k(%a: G4, %b: G4, %c: G4, %d: G4, %sel: i1) {
  %v = otir.load %d : G4 -> P4
  %p = scf.if %sel -> (G4) {
    scf.yield %a : G4
  } else {
    scf.yield %b : G4
  }
  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %q = scf.for %i = %c0 to %c1 step %c1 iter_args(%x = %p) -> (G4) {
    otir.store %v, %x : P4, G4
    scf.yield %x : G4
  }
  otir.return
}`)
	m := parseModule(t, src)
	k, err := FindKernel(m, "k")
	if err != nil {
		t.Fatal(err)
	}
	got := Written(k)
	want := []bool{true, true, false, false, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Written = %v, want %v", got, want)
		}
	}
	sel, _ := Scalar(ir.Bool(), 0)
	res, err := Run(m, "k", []*Buffer{ints(t, "4xi8", 0, 0, 0, 0), ints(t, "4xi8", 0, 0, 0, 0), ints(t, "4xi8", 0, 0, 0, 0), ints(t, "4xi8", 9, 8, 7, 6), sel}, Options{})
	if err != nil {
		t.Fatal(renderErr(err))
	}
	wantInts(t, "b (selected)", res.Output("b"), 9, 8, 7, 6)
	wantInts(t, "a (not selected)", res.Output("a"), 0, 0, 0, 0)
}
