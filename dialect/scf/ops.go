// Package scf defines the operations of MLIR's scf dialect that OTIR uses:
// one record per operation, registered with the IR on import.
package scf

import "github.com/otir-dev/otir/ir"

// Operation names of the scf operations OTIR uses.
const (
	OpFor   = "scf.for"
	OpIf    = "scf.if"
	OpYield = "scf.yield"
)

// Ops is the scf dialect's table of operation definitions.
var Ops = []ir.OpDef{
	{Name: OpFor, Summary: "counted loop with loop-carried values", Traits: ir.SingleBlock,
		Operands: []ir.ArgDef{
			{Name: "lowerBound", Doc: "index"}, {Name: "upperBound", Doc: "index"}, {Name: "step", Doc: "index"},
			{Name: "initArgs", Arity: ir.Variadic, Doc: "the loop-carried values' initial values"},
		},
		Results: []ir.ArgDef{{Name: "results", Arity: ir.Variadic, Doc: "the loop-carried values' final values"}},
		Regions: []string{"region"},
		Format:  "custom<ForHeader>($lowerBound, $upperBound, $step, $initArgs, $region) $region attr-dict"},
	{Name: OpIf, Summary: "conditional with results", Traits: ir.SingleBlock, EmptyRegions: []string{"elseRegion"},
		Operands: []ir.ArgDef{{Name: "condition", Doc: "i1"}},
		Results:  []ir.ArgDef{{Name: "results", Arity: ir.Variadic}},
		Regions:  []string{"thenRegion", "elseRegion"},
		Format:   "$condition (`->` `(` type($results)^ `)`)? $thenRegion (`else` $elseRegion^)? attr-dict"},
	{Name: OpYield, Summary: "yields values from an scf region", Traits: ir.Terminator, Terminator: true,
		Parents:  []string{OpFor, OpIf},
		Operands: []ir.ArgDef{{Name: "results", Arity: ir.Variadic}},
		Format:   "attr-dict ($results^ `:` type($results))?"},
}

func init() {
	for i := range Ops {
		d := Ops[i]
		if v := verifiers[d.Name]; v != nil {
			d.Verify = v
		}
		ir.RegisterOp(d)
	}
}
