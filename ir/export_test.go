package ir

// SetParallelPrint sets the printer's parallel-block threshold (fewest
// operations per goroutine) and goroutine count (0: GOMAXPROCS) for a test,
// and returns a function restoring the previous values.
func SetParallelPrint(minOps, workers int) (restore func()) {
	m, w := parallelMinOps, parallelWorkers
	parallelMinOps, parallelWorkers = minOps, workers
	return func() { parallelMinOps, parallelWorkers = m, w }
}

// OnParallelPrint sets a function told of each block printed in parallel,
// and returns a function removing it.
func OnParallelPrint(f func(ops, ways int)) (restore func()) {
	parallelHook = f
	return func() { parallelHook = nil }
}

// PanicAttr is an attribute whose printing panics.
type PanicAttr struct{}

func (PanicAttr) isAttr()        {}
func (PanicAttr) String() string { panic("PanicAttr printed") }
