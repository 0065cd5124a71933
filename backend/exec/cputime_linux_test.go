//go:build linux

package exec

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU is the CPU time of the calling thread (CLOCK_THREAD_CPUTIME_ID),
// for benchmarks locked to their thread: other processes and the garbage
// collector's workers do not count in it.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}
