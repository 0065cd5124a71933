package parse

// The parser reads the operations of the dialects registered with the IR; it
// registers OTIR's own (otir, scf) and the nn graphs' (nn) by importing them.
// Other dialects (dais) register when their package is imported.
import (
	_ "github.com/otir-dev/otir/dialect/nn"
	_ "github.com/otir-dev/otir/dialect/otir"
	_ "github.com/otir-dev/otir/dialect/scf"
)
