package ir

import (
	"fmt"
	"sort"
	"strings"
)

// Operation names. Element-wise and other OTIR operations of the
// specification's section 6, the project's extensions, and the scf/builtin
// operations OTIR reuses.
const (
	OpModule    = "builtin.module"
	OpKernel    = "otir.kernel"
	OpReturn    = "otir.return"
	OpConstant  = "otir.constant"
	OpProgramID = "otir.program_id"
	OpNumProgs  = "otir.num_programs"

	OpAlloc  = "otir.alloc"
	OpDMA    = "otir.dma_copy_async"
	OpLoad   = "otir.load"
	OpStore  = "otir.store"
	OpAtomic = "otir.atomic_rmw"

	OpAdd  = "otir.add"
	OpSub  = "otir.sub"
	OpMul  = "otir.mul"
	OpDivS = "otir.div_s"
	OpDivU = "otir.div_u"
	OpRemS = "otir.rem_s"
	OpRemU = "otir.rem_u"
	OpAnd  = "otir.and"
	OpOr   = "otir.or"
	OpXor  = "otir.xor"
	OpShl  = "otir.shl"
	OpShrS = "otir.shr_s"
	OpShrU = "otir.shr_u"
	OpMax  = "otir.max"
	OpMin  = "otir.min"

	OpNeg  = "otir.neg"
	OpNot  = "otir.not"
	OpAbs  = "otir.abs"
	OpSqrt = "otir.sqrt"
	OpExp  = "otir.exp"
	OpLog  = "otir.log"

	OpCmp    = "otir.cmp"
	OpSelect = "otir.select"
	OpCast   = "otir.cast"

	OpMatmul       = "otir.matmul"
	OpReshape      = "otir.reshape"
	OpTranspose    = "otir.transpose"
	OpExtractSlice = "otir.extract_slice"
	OpInsertSlice  = "otir.insert_slice"
	OpReduce       = "otir.reduce"

	OpBarrier = "otir.barrier"
	OpWait    = "otir.wait"

	OpFor   = "scf.for"
	OpIf    = "scf.if"
	OpYield = "scf.yield"
)

// Syntax is the shape of an operation's pretty form; the parser and the printer
// dispatch on it.
type Syntax uint8

const (
	SyntaxModule       Syntax = iota // module attributes {...} { ... }
	SyntaxKernel                     // otir.kernel @f(%a: T) attributes {...} { ... }
	SyntaxNullary                    // otir.return, otir.barrier
	SyntaxConstant                   // otir.constant 16 : index
	SyntaxAxis                       // otir.program_id axis(0)
	SyntaxAlloc                      // otir.alloc() : T
	SyntaxBinary                     // otir.add %a, %b : T | : T1, T2 | : (T1, T2) -> T3
	SyntaxUnary                      // otir.neg %a : T | : (T1) -> T2
	SyntaxCmp                        // otir.cmp kind(slt) %a, %b : (T1, T2) -> T3
	SyntaxSelect                     // otir.select %c, %a, %b : (Tc, Ta, Tb) -> T
	SyntaxConvert                    // otir.cast / load / reshape %a : T1 -> T2
	SyntaxDMA                        // otir.dma_copy_async %s, %d[, %m] : (S, D[, M]) -> !otir.token
	SyntaxStore                      // otir.store %v, %p : V, P
	SyntaxAtomic                     // otir.atomic_rmw %p, %v, kind(add), memory_order(relaxed) : P, V -> R
	SyntaxMatmul                     // otir.matmul %a, %b, %c : (A, B, C) -> D
	SyntaxTranspose                  // otir.transpose %x, permutation(1, 0) : T1 -> T2
	SyntaxExtractSlice               // otir.extract_slice %a[%o, 0] [16, 4] [1, 1] : T1 to T2
	SyntaxInsertSlice                // otir.insert_slice %s into %d[%o] [16] [1] : T1 into T2
	SyntaxWait                       // otir.wait [%t0, %t1]
	SyntaxFor                        // scf.for %i = %lb to %ub step %s iter_args(%x = %v) -> (T) { }
	SyntaxIf                         // scf.if %c -> (T) { } else { }
	SyntaxYield                      // scf.yield %a, %b : T1, T2
	// SyntaxGeneric ops have no pretty form and always print generically.
	SyntaxGeneric
)

var opDefs = map[string]*OpDef{}

func init() {
	RegisterOp(OpDef{Name: OpModule, Summary: "top-level container of kernels", Syntax: SyntaxModule,
		Regions: []string{"bodyRegion"}, Traits: IsolatedFromAbove | SingleBlock | NoTerminator,
		Format: "attr-dict-with-keyword $bodyRegion", Verify: verifyModule})
}

// verifyModule: the module's body has no arguments. (The otir dialect adds
// its rule on the otir.typing_style attribute.)
func verifyModule(op *Operation, _ *VerifyContext) error {
	if b := op.Body(0); b != nil && len(b.Args) != 0 {
		return fmt.Errorf("body must have no arguments, but has %d", len(b.Args))
	}
	return nil
}

// LookupOp returns the definition of a registered operation, or nil.
func LookupOp(name string) *OpDef { return opDefs[name] }

// OpNames lists every registered operation name, sorted.
func OpNames() []string {
	ns := make([]string, 0, len(opDefs))
	for n := range opDefs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// IsElementwise reports whether the op applies a scalar function per element
// (binary, unary, cmp, select, cast).
func IsElementwise(name string) bool {
	d := opDefs[name]
	return d != nil && d.Has(Elementwise)
}

// CmpPredicates are the comparison kinds of otir.cmp.
var CmpPredicates = []string{"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "oeq", "one", "olt", "ole", "ogt", "oge"}

// AtomicKinds are the read-modify-write kinds of otir.atomic_rmw.
var AtomicKinds = []string{"add", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"}

// MemoryOrders are the memory orders of otir.atomic_rmw.
var MemoryOrders = []string{"relaxed", "acquire", "release", "acq_rel"}

// DynamicOffset marks a dynamic entry of static_offsets (as MLIR's kDynamic).
const DynamicOffset int64 = -9223372036854775808

// Dialects lists the dialects of the registered operations (the part of each
// name before its first dot, "builtin" included), sorted, as mlir-opt's
// --show-dialects.
func Dialects() []string {
	seen := map[string]bool{"builtin": true}
	for n := range opDefs {
		if d, _, ok := strings.Cut(n, "."); ok {
			seen[d] = true
		}
	}
	ds := make([]string, 0, len(seen))
	for d := range seen {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	return ds
}
