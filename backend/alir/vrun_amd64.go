package alir

import "unsafe"

//go:generate go run vrun_gen.go

// haveVector reports AVX2 and its registers' state saved by the OS.
var haveVector = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 || xgetbv0()&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0 // AVX2
}()

// vrun32 runs n vector instructions over int32 slots of nbytes bytes.
//
//go:noescape
func vrun32(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

// vrun64 runs n vector instructions over int64 slots of nbytes bytes.
//
//go:noescape
func vrun64(buf unsafe.Pointer, code *vinstr, n int, nbytes int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv0() (eax uint32)
