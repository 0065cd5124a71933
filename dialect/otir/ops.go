// Package otir defines the otir dialect: one record per operation (its
// operands, results, attributes, traits, memory effects, assembly format,
// verifier hook, result type inference and typing rule), registered with the
// IR on import.
//
// Each file holds one family of operations, as an ODS .td file does, with
// everything about them: their names, records, Verify hooks, builders, the
// custom directives of their assembly formats, their result type inference
// and their exemptions from the completeness test:
//
//	kernel.go       otir.kernel, otir.return, otir.program_id, otir.num_programs, the otir.typing_style rule
//	constant.go     otir.constant
//	memory.go       otir.alloc, otir.dma_copy_async, otir.load, otir.store, otir.atomic_rmw, otir.wait, otir.barrier, the token rule
//	elementwise.go  the binary and unary ops, otir.cmp, otir.select, otir.cast
//	matmul.go       otir.matmul
//	shape.go        otir.reshape, otir.transpose, otir.extract_slice, otir.insert_slice, otir.reduce
//	lookup.go       otir.lookup (an extension: a table lookup)
//
// dialect.go holds the helpers they share.
package otir

import (
	"maps"

	"github.com/otir-dev/otir/ir"
)

// families are the dialect's families of operations, in the order of the
// specification's section 6.
var families = []*family{&kernelFamily, &constantFamily, &memoryFamily, &elementwiseFamily, &matmulFamily, &shapeFamily, &lookupFamily}

// registered is families as registered with ir.
var registered []ir.Family

func init() {
	for _, f := range families {
		registered = append(registered, ir.Family{Ops: f.ops, Register: f.register, NoVerify: f.noVerify})
		maps.Copy(NoTyping, f.noTyping)
	}
	ir.RegisterFamilies(NoVerify, registered...)
}
