package exec

import (
	"strings"
	"testing"
)

// TestShapeOpsOnViewsAndValues: transpose, reshape and strided slices of a
// #global tile are views (reads and writes go to the argument's memory);
// insert_slice builds a new #private value.
func TestShapeOpsOnViewsAndValues(t *testing.T) {
	src := strings.NewReplacer("G23", "!otir.tile<2x3xi8, #global>", "G32", "!otir.tile<3x2xi8, #global>",
		"P32", "!otir.tile<3x2xi8, #private>", "G6", "!otir.tile<6xi8, #global>", "P6", "!otir.tile<6xi8, #private>",
		"G22", "!otir.tile<2x2xi8, #global>", "P22", "!otir.tile<2x2xi8, #private>",
		"G4", "!otir.tile<4xi8, #global>", "P4", "!otir.tile<4xi8, #private>", "P2", "!otir.tile<2xi8, #private>").Replace(`
otir.kernel @k(%a: G23, %t: G32, %r: G6, %s: G22, %p: G4, %w: G23) {
  %at = otir.transpose %a, permutation(1, 0) : G23 -> G32
  %v = otir.load %at : G32 -> P32
  otir.store %v, %t : P32, G32
  %ar = otir.reshape %a : G23 -> G6
  %vr = otir.load %ar : G6 -> P6
  otir.store %vr, %r : P6, G6
  %as = otir.extract_slice %a[0, 0] [2, 2] [1, 2] : G23 to G22
  %vs = otir.load %as : G22 -> P22
  otir.store %vs, %s : P22, G22
  %z = otir.constant dense<0> : P4
  %x = otir.constant dense<[7, 8]> : P2
  %ins = otir.insert_slice %x into %z[1] [2] [1] : P2 into P4
  otir.store %ins, %p : P4, G4
  %wt = otir.transpose %w, permutation(1, 0) : G23 -> G32
  otir.store %v, %wt : P32, G32
  otir.return
}`)
	a := []int64{1, 2, 3, 4, 5, 6}
	zeros := func(shape string, n int) *Buffer { return ints(t, shape, make([]int64, n)...) }
	res := runText(t, src, Options{}, ints(t, "2x3xi8", a...), zeros("3x2xi8", 6), zeros("6xi8", 6), zeros("2x2xi8", 4), zeros("4xi8", 4), zeros("2x3xi8", 6))
	wantInts(t, "transpose", res.Output("t"), 1, 4, 2, 5, 3, 6)
	wantInts(t, "reshape", res.Output("r"), a...)
	wantInts(t, "strided slice", res.Output("s"), 1, 3, 4, 6)
	wantInts(t, "insert_slice", res.Output("p"), 0, 7, 8, 0)
	wantInts(t, "store through a transposed view", res.Output("w"), a...)

	written := map[string]bool{}
	for _, p := range res.Params {
		written[p.Name] = p.Written
	}
	want := map[string]bool{"a": false, "t": true, "r": true, "s": true, "p": true, "w": true}
	for name, w := range want {
		if written[name] != w {
			t.Errorf("Written(%s) = %v, want %v", name, written[name], w)
		}
	}
}

// TestMaskedDMA copies only the elements the mask selects.
func TestMaskedDMA(t *testing.T) {
	src := strings.NewReplacer("G4", i8x4, "W4", wg4, "P4", priv4, "M4", "!otir.tile<4xi1, #private>").Replace(`
otir.kernel @k(%a: G4, %c: G4) {
  %w = otir.alloc() : W4
  %z = otir.constant dense<-1> : P4
  otir.store %z, %w : P4, W4
  %m = otir.constant dense<[true, false, false, true]> : M4
  %t = otir.dma_copy_async %a, %w, %m : (G4, W4, M4) -> !otir.token
  otir.wait [%t]
  otir.barrier
  %t2 = otir.dma_copy_async %w, %c : (W4, G4) -> !otir.token
  otir.wait [%t2, %t2]
  otir.return
}`)
	res := runText(t, src, Options{}, ints(t, "4xi8", 1, 2, 3, 4), ints(t, "4xi8", 0, 0, 0, 0))
	wantInts(t, "c", res.Output("c"), 1, -1, -1, 4)
}
