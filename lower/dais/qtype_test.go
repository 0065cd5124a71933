package dais

import (
	"testing"

	"github.com/otir-dev/otir/ir"
)

// TestFixedType reads !dais.q types through ir.ParseType (the dialect
// registers the type's parser) and checks their errors.
func TestFixedType(t *testing.T) {
	for in, want := range map[string]string{
		"!dais.q<-3, 3, 1>":                 "!dais.q<-3, 3, 1>",
		"!dais.q<-3.0, 3.0, 1.0>":           "!dais.q<-3, 3, 1>",
		"!dais.q<0, 0.75, 0.25>":            "!dais.q<0, 0.75, 0.25>",
		"!dais.q<-128, 127.5, 0.5>":         "!dais.q<-128, 127.5, 0.5>",
		"!dais.q<0, 1.5e20, 1099511627776>": "!dais.q<0, 1.5e+20, 1099511627776>",
	} {
		ty, err := ir.ParseType(in)
		if err != nil || ty.String() != want {
			t.Errorf("ir.ParseType(%q) = %v, %v; want %s", in, ty, err, want)
		}
	}
	for in, want := range map[string]string{
		"!dais.q<3, -3, 1>":  "interval minimum 3 exceeds its maximum -3",
		"!dais.q<0, 3, 0.3>": "interval step must be a power of two, got 0.3",
		"!dais.q<0, 3, 0>":   "interval step must be positive, got 0",
		"!dais.q<0, 3>":      "expected !dais.q<min, max, step>, got '!dais.q<0, 3>'",
		"!dais.q<0, x, 1>":   "invalid interval bound 'x' in !dais.q",
	} {
		if _, err := ir.ParseType(in); err == nil || err.Error() != want {
			t.Errorf("ir.ParseType(%q) error = %v, want %s", in, err, want)
		}
	}
}
