package parse

// The parser reads the operations of the dialects registered with the IR; it
// registers OTIR's own (otir, scf), the nn graphs' (nn) and the quant type by importing them.
// Other dialects (dais) register when their package is imported.
import (
	_ "github.com/otir-dev/otir/dialect/nn"
	_ "github.com/otir-dev/otir/dialect/otir"
	_ "github.com/otir-dev/otir/dialect/quant"
	_ "github.com/otir-dev/otir/dialect/scf"
)
