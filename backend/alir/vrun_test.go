package alir

import (
	"math/rand/v2"
	"testing"
)

// TestVectorKernels runs every vector operation with every shift, on slots
// that are distinct or the same (d = a, d = b, a = b), against the Go
// kernels of the same instruction kinds, for both slot storages, with AVX2
// and (where the CPU has it) AVX-512.
func TestVectorKernels(t *testing.T) {
	if !haveVector {
		t.Skip("no vector runs on this CPU")
	}
	defer func(v bool) { use512 = v }(use512)
	for _, z := range []bool{false, true} {
		if z && !haveVector512 {
			t.Log("no AVX-512 on this CPU")
			continue
		}
		use512 = z
		testVectorKernels[int32](t)
		testVectorKernels[int64](t)
	}
}

func testVectorKernels[T elem](t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const nSlots = 4
	kinds := []kind{kAdd, kSub, kAddShB, kAddShA, kSubShB, kSubShA}
	type slots struct{ d, a, b int }
	layouts := []slots{{0, 1, 2}, {1, 1, 2}, {2, 1, 2}, {0, 3, 3}, {3, 3, 3}}
	for _, kd := range kinds {
		for s := range 64 {
			for _, l := range layouts {
				buf := make([]T, nSlots*blockSize)
				for i := range buf {
					switch r.IntN(4) {
					case 0:
						buf[i] = T(r.Int64()) // extremes wrap
					case 1:
						buf[i] = T(-1 << (r.IntN(63)))
					default:
						buf[i] = T(r.Int64N(1<<20) - 1<<19)
					}
				}
				want := append([]T(nil), buf...)
				ins := instr{kind: kd, d: l.d * blockSize, a: l.a * blockSize, b: l.b * blockSize}
				switch kd {
				case kAddShB, kSubShB:
					ins.s1 = uint8(s)
				case kAddShA, kSubShA:
					ins.s0 = uint8(s)
				}
				ins.m0, ins.m1 = int64(1)<<ins.s0, int64(1)<<ins.s1
				v, ok := vecInstr(&ins)
				if !ok {
					t.Fatalf("kind %d has no vector form", kd)
				}
				m := &Machine{code: []instr{ins}}
				goBlock(m, want)
				m.vcode = []vinstr{v}
				m.code[0].vlen = 1
				runVector(m, buf, &m.code[0])
				for i := range buf {
					if buf[i] != want[i] {
						t.Fatalf("%T (AVX-512 %v) kind %d shift %d slots %v: lane %d: vector %d, Go %d", buf[0], use512, kd, s, l, i, buf[i], want[i])
					}
				}
			}
		}
	}
}

// goBlock runs the single instruction m.code[0] with the Go kernels.
func goBlock[T elem](m *Machine, buf []T) {
	ins := &m.code[0]
	d, a, b := slotAt(buf, ins.d), slotAt(buf, ins.a), slotAt(buf, ins.b)
	switch ins.kind {
	case kAdd:
		addBlock(d, a, b)
	case kSub:
		subBlock(d, a, b)
	case kAddShB:
		addMulBlock(d, a, b, ins.m1)
	case kSubShB:
		subMulBlock(d, a, b, ins.m1)
	case kAddShA:
		addMulBlock(d, b, a, ins.m0)
	case kSubShA:
		mulSubBlock(d, a, b, ins.m0)
	}
}

// TestVectorMatchesGo compiles shift-and-add programs with and without
// vector runs and compares the outputs bit for bit, for both storages.
func TestVectorMatchesGo(t *testing.T) {
	if !haveVector {
		t.Skip("no vector runs on this CPU")
	}
	defer func(v, z bool) { useVector, use512 = v, z }(useVector, use512)
	for seed := range uint64(8) {
		use512 = seed%2 == 0
		p := RandomShiftAdd(ShiftAddConfig{Seed: seed, Ops: 600, Window: 32, MaxWidth: []int{12, 32, 60}[seed%3]})
		n := []int{1, blockSize + 5, 3 * blockSize}[seed%3]
		in := RandomInputs(p, n, seed)
		useVector = true
		mv, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		useVector = false
		mg, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(mv.vcode) == 0 || len(mg.vcode) != 0 {
			t.Fatalf("seed %d: %d and %d vector instructions", seed, len(mv.vcode), len(mg.vcode))
		}
		for _, narrow := range []bool{mv.narrow, false} {
			mv.narrow, mg.narrow = narrow, narrow
			got, err := mv.Run(in, n)
			if err != nil {
				t.Fatal(err)
			}
			want, err := mg.Run(in, n)
			if err != nil {
				t.Fatal(err)
			}
			if k := sameFloats(got, want); k >= 0 {
				t.Fatalf("seed %d narrow %v: value %d: vector %v, Go %v", seed, narrow, k, got[k], want[k])
			}
		}
	}
}
