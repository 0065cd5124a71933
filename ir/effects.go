package ir

// Effect classifies what an operation does beyond computing its results, for
// transformations such as CSE and DCE.
type Effect uint8

const (
	// NoEffect: the results depend only on the operands and attributes.
	NoEffect Effect = iota
	// AllocEffect: the op allocates fresh memory (its result). Two allocations
	// are never the same, but an unused one can be dropped.
	AllocEffect
	// ReadEffect: the op reads memory that other operations may write.
	ReadEffect
	// WriteEffect: the op writes memory, synchronises, or is unknown.
	WriteEffect
)

// OpEffect is the effect of op itself, not counting the operations nested in
// its regions: allocations, copies, loads from #global or #workgroup, stores,
// atomics, waits and barriers have effects; loads from #private, views
// (extract_slice, reshape), arithmetic and constants do not. Operations that
// are not registered are assumed to write memory.
func OpEffect(op *Operation) Effect {
	switch op.Name {
	case OpAlloc:
		return AllocEffect
	case OpDMA, OpStore, OpAtomic, OpWait, OpBarrier:
		return WriteEffect
	case OpLoad:
		if len(op.Operands) == 1 && isPrivate(op.Operands[0]) {
			return NoEffect
		}
		return ReadEffect
	case OpInsertSlice:
		// Inserting into a #private tile makes a new value; anything else
		// would update memory.
		if len(op.Operands) >= 2 && isPrivate(op.Operands[1]) {
			return NoEffect
		}
		return WriteEffect
	}
	d := LookupOp(op.Name)
	if d == nil {
		return WriteEffect
	}
	return d.Effect
}

func isPrivate(v *Value) bool {
	if v == nil {
		return false
	}
	t, ok := v.Type.(*TileType)
	return !ok || t.Space == Private
}

// IsTerminator reports whether op ends its block (scf.yield, otir.return, or
// a registered op marked Terminator).
func IsTerminator(op *Operation) bool {
	if op.Name == OpYield || op.Name == OpReturn {
		return true
	}
	d := LookupOp(op.Name)
	return d != nil && d.Terminator
}

// IsPure reports whether op and every operation nested in its regions have no
// effect: the op computes its results from its operands alone, so it may be
// merged with an identical op or removed when unused.
func IsPure(op *Operation) bool {
	pure := true
	op.Walk(func(o *Operation) bool {
		if OpEffect(o) != NoEffect {
			pure = false
		}
		return pure
	})
	return pure
}

// IsRemovableWhenUnused reports whether op can be deleted when none of its
// results is used: it is not a terminator, and it and everything nested in it
// is pure or a mere allocation.
func IsRemovableWhenUnused(op *Operation) bool {
	if IsTerminator(op) || op.Name == OpKernel || op.Name == OpModule {
		return false
	}
	ok := true
	op.Walk(func(o *Operation) bool {
		if e := OpEffect(o); e != NoEffect && e != AllocEffect {
			ok = false
		}
		return ok
	})
	return ok
}
