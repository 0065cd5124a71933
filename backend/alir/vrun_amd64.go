package alir

import "unsafe"

//go:generate go run vrun_gen.go

// haveVector reports AVX2, haveVector512 AVX-512F, each with its
// registers' state saved by the OS.
var haveVector, haveVector512 = func() (bool, bool) {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false, false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false, false
	}
	xcr0 := xgetbv0()
	_, b7, _, _ := cpuid(7, 0)
	avx2 := xcr0&6 == 6 && b7&(1<<5) != 0
	avx512 := avx2 && xcr0&0xe6 == 0xe6 && b7&(1<<16) != 0
	return avx2, avx512
}()

// vrun32 runs n vector instructions over int32 slots of nbytes bytes.
//
//go:noescape
func vrun32(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

// vrun64 runs n vector instructions over int64 slots of nbytes bytes.
//
//go:noescape
func vrun64(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

// vrun32z and vrun64z are vrun32 and vrun64 with AVX-512.
//
//go:noescape
func vrun32z(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

//go:noescape
func vrun64z(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax uint32)
