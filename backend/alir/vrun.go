package alir

import "unsafe"

// Vector runs: on amd64 with AVX2, consecutive instructions of the simplest
// linear kinds (d = a ± b, a ± b*2^s, a*2^s - b, no right shift, no wrap:
// the bulk of shift-and-add programs such as CMVM solutions) are executed by
// one assembly call (vrun32 or vrun64, by the slot storage) that loops over
// them without returning to Go, eight (int32) or four (int64) lanes per
// instruction. The arithmetic is modulo 2^32 or 2^64 exactly like the Go
// kernels of the same kinds (see blockops.go), so the results are the same
// bits; a left shift of 32 or more gives 0 in VPSLLD as in Go's int32
// multiplication by 2^s.

// vinstr is one instruction of a vector run; the layout is read by
// vrun_amd64.s.
type vinstr struct {
	d, a, b int64  // offsets of the slots in the worker's buffer, in elements
	op      uint32 // vAdd...
	s       uint32 // the shift of vAddSh, vSubSh, vShSub
}

// Operations of a vinstr.
const (
	vAdd   = iota // d = a + b
	vSub          // d = a - b
	vAddSh        // d = a + (b << s)
	vSubSh        // d = a - (b << s)
	vShSub        // d = (a << s) - b
)

// useVector enables vector runs (when the CPU has them), use512 their
// AVX-512 loops (when the CPU has them); tests turn them off to compare.
var useVector, use512 = true, true

// vecInstr returns the vector form of ins, if it has one.
func vecInstr(ins *instr) (vinstr, bool) {
	if ins.wrap != wrapNone {
		return vinstr{}, false
	}
	v := vinstr{d: int64(ins.d), a: int64(ins.a), b: int64(ins.b)}
	switch ins.kind {
	case kAdd:
		v.op = vAdd
	case kSub:
		v.op = vSub
	case kAddShB:
		v.op, v.s = vAddSh, uint32(ins.s1)
	case kAddShA: // (a << s) + b = b + (a << s)
		v.op, v.s, v.a, v.b = vAddSh, uint32(ins.s0), v.b, v.a
	case kSubShB:
		v.op, v.s = vSubSh, uint32(ins.s1)
	case kSubShA:
		v.op, v.s = vShSub, uint32(ins.s0)
	default:
		return vinstr{}, false
	}
	return v, true
}

// buildVector finds the runs of consecutive instructions with a vector form
// and records them: code[k].vlen > 0 starts a run of vlen instructions whose
// vector forms are vcode[code[k].vstart:][:vlen]. Even a run of one
// instruction is faster than the Go kernel (the call costs a few cycles, the
// Go loop one or more per lane). A run is at most maxRun instructions: the
// assembly cannot be preempted, so one call must not take long.
func (m *Machine) buildVector() {
	if !haveVector || !useVector || blockSize*4%128 != 0 {
		return
	}
	const maxRun = 2048
	for k := 0; k < len(m.code); {
		j := k
		var run []vinstr
		for j < len(m.code) && len(run) < maxRun {
			v, ok := vecInstr(&m.code[j])
			if !ok {
				break
			}
			run = append(run, v)
			j++
		}
		if len(run) > 0 {
			m.code[k].vstart, m.code[k].vlen = int32(len(m.vcode)), int32(len(run))
			m.vcode = append(m.vcode, run...)
		}
		k = max(j, k+1)
	}
}

// runVector executes the vector run starting at ins on buf.
func runVector[T elem](m *Machine, buf []T, ins *instr) {
	code := m.vcode[ins.vstart : ins.vstart+ins.vlen]
	var z T
	size := int(unsafe.Sizeof(z))
	p := unsafe.Pointer(unsafe.SliceData(buf))
	wide := haveVector512 && use512 && blockSize*4%256 == 0
	switch {
	case size == 4 && wide:
		vrun32z(p, &code[0], len(code), blockSize*4)
	case size == 4:
		vrun32(p, &code[0], len(code), blockSize*4)
	case wide:
		vrun64z(p, &code[0], len(code), blockSize*8)
	default:
		vrun64(p, &code[0], len(code), blockSize*8)
	}
}
