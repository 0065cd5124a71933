package dais

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// FixedType is the type of a value of the scalar dataflow (`dais` dialect): a
// fixed-point number known to lie in [Min, Max] on a grid of Step (a power of
// two), as an ALIR quantization interval. It prints as !dais.q<min, max, step>.
type FixedType struct {
	ir.DialectType
	Min, Max, Step float64
	str            string
}

func (t *FixedType) String() string { return t.str }

// FixedOf returns the interned fixed-point type of an interval.
func FixedOf(min, max, step float64) *FixedType {
	key := "!dais.q<" + fmtNum(min) + ", " + fmtNum(max) + ", " + fmtNum(step) + ">"
	return ir.InternType(key, func() ir.Type { return &FixedType{Min: min, Max: max, Step: step, str: key} }).(*FixedType)
}

// fmtNum prints an interval bound exactly and compactly: integers without a
// fraction, other values in the shortest form that reads back identically.
func fmtNum(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e18 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// parseFixed reads the body of !dais.q<min, max, step>.
func parseFixed(body string) (ir.Type, error) {
	parts := strings.Split(body, ",")
	if len(parts) != 3 {
		return nil, fmt.Errorf("expected !dais.q<min, max, step>, got '!dais.q<%s>'", body)
	}
	var v [3]float64
	for i, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, fmt.Errorf("invalid interval bound '%s' in !dais.q", strings.TrimSpace(p))
		}
		v[i] = f
	}
	if v[0] > v[1] {
		return nil, fmt.Errorf("interval minimum %s exceeds its maximum %s", fmtNum(v[0]), fmtNum(v[1]))
	}
	if v[2] <= 0 {
		return nil, fmt.Errorf("interval step must be positive, got %s", fmtNum(v[2]))
	}
	if frac, _ := math.Frexp(v[2]); frac != 0.5 {
		return nil, fmt.Errorf("interval step must be a power of two, got %s", fmtNum(v[2]))
	}
	return FixedOf(v[0], v[1], v[2]), nil
}

func init() { ir.RegisterType("dais.q", parseFixed) }
