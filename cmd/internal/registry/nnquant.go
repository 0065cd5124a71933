package registry

// nn-quantize (lower/nnquant), which nn-to-circuit runs first when it is
// linked.
import _ "github.com/otir-dev/otir/lower/nnquant"
