package passes_test

import (
	"fmt"
	"os"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
	_ "github.com/otir-dev/otir/passes/cse"
	_ "github.com/otir-dev/otir/passes/dce"
)

// ExampleManager runs a textual pipeline from Go, printing the IR after each
// pass as --print-ir-after-all does.
func ExampleManager() {
	m := ir.NewModule(ir.Location{})
	_, body := otir.Kernel(ir.NewBuilder(m.Body()), "k", nil, nil)
	b := ir.NewBuilder(body)
	b.Binary(otir.OpAdd, otir.ConstInt(b, 1, ir.Index()), otir.ConstInt(b, 1, ir.Index()), ir.Index())
	otir.Return(b)

	pl, err := passes.ParsePipeline("builtin.module(cse,dce)")
	if err != nil {
		fmt.Println(err)
		return
	}
	pm, err := passes.NewManager(pl)
	if err != nil {
		fmt.Println(err)
		return
	}
	pm.Verify = func(*ir.Module) diag.List { return nil } // e.g. verify.Verify
	pm.AddInstrumentation(&passes.IRPrinter{W: os.Stdout, After: passes.AllPasses})
	if ds := pm.Run(m); ds.HasErrors() {
		diag.NewSourceMgr().RenderAll(os.Stdout, ds)
	}
	// Output:
	// // -----// IR Dump After CSE (cse) //----- //
	// module {
	//   otir.kernel @k() {
	//     %c1 = otir.constant 1 : index
	//     %0 = otir.add %c1, %c1 : index
	//     otir.return
	//   }
	// }
	//
	// // -----// IR Dump After DCE (dce) //----- //
	// module {
	//   otir.kernel @k() {
	//     otir.return
	//   }
	// }
}
