package alir

import (
	"unsafe"

	"golang.org/x/sys/cpu"
)

//go:generate go run vrun_gen.go

// haveVector reports AVX2, haveVector512 AVX-512F, each with its
// registers' state saved by the OS (golang.org/x/sys/cpu checks both).
var haveVector, haveVector512 = cpu.X86.HasAVX2, cpu.X86.HasAVX2 && cpu.X86.HasAVX512F

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
