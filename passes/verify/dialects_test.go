package verify

// The tests build IR of these dialects without parsing it.
import (
	_ "github.com/otir-dev/otir/dialect/otir"
	_ "github.com/otir-dev/otir/dialect/scf"
)
