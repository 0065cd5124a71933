package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// delayFirstGC turns the collector off up to the limit and restores the usual
// collector after the first collection.
func TestDelayFirstGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	}()

	delayFirstGC(64 << 20)
	if limit := debug.SetMemoryLimit(-1); limit != 64<<20 {
		t.Fatalf("memory limit %d, want %d", limit, 64<<20)
	}
	runtime.GC()
	for i := 0; i < 200 && debug.SetMemoryLimit(-1) != math.MaxInt64; i++ {
		time.Sleep(5 * time.Millisecond) // finalizers run on their own goroutine
	}
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Fatalf("memory limit still %d after the first collection", limit)
	}
	if percent := debug.SetGCPercent(100); percent != 100 {
		t.Fatalf("GOGC is %d after the first collection, want 100", percent)
	}
}

// A GOGC chosen by the user is left alone.
func TestDelayFirstGCKeepsUserSetting(t *testing.T) {
	t.Setenv("GOGC", "50")
	old := debug.SetGCPercent(77)
	defer debug.SetGCPercent(old)
	delayFirstGC(64 << 20)
	if percent := debug.SetGCPercent(old); percent != 77 {
		t.Fatalf("GOGC changed to %d", percent)
	}
}

// The starting heap is a sixteenth of the machine's memory, within
// 64-256 MiB: small runs never collect, big ones keep about twice what is
// live.
func TestStartingHeap(t *testing.T) {
	for _, c := range []struct {
		physical uint64
		want     int64
	}{{0, 256 << 20}, {512 << 20, 64 << 20}, {2 << 30, 128 << 20}, {3 << 30, 192 << 20}, {4 << 30, 256 << 20}, {64 << 30, 256 << 20}} {
		if got := startingHeap(c.physical); got != c.want {
			t.Errorf("startingHeap(%d) = %d, want %d", c.physical, got, c.want)
		}
	}
	if runtime.GOOS == "linux" && physicalMemory() == 0 {
		t.Error("physicalMemory() is 0 on Linux")
	}
}
