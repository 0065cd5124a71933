package typing_test

// The typing keys of operations are on their records: register the otir
// dialect's for the tests of this package (an external test file, so that
// dialect/otir, which imports typing, links against this package's test
// build).
import _ "github.com/otir-dev/otir/dialect/otir"
