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
// its regions, as its record declares it (OpDef.Effect or OpDef.EffectOf).
// Operations that are not registered are assumed to write memory.
func OpEffect(op *Operation) Effect {
	d := LookupOp(op.Name)
	if d == nil {
		return WriteEffect
	}
	if d.EffectOf != nil {
		return d.EffectOf(op)
	}
	return d.Effect
}

// IsTerminator reports whether op ends its block (scf.yield, otir.return, or
// a registered op marked Terminator).
func IsTerminator(op *Operation) bool {
	d := LookupOp(op.Name)
	return d != nil && (d.Has(Terminator) || d.EndsBlock)
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
	if IsTerminator(op) || op.Name == OpModule {
		return false
	}
	if d := LookupOp(op.Name); d != nil && d.Has(Symbol) {
		return false // a symbol (otir.kernel) is used by name
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
