package typing

import (
	"errors"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestInferResult(t *testing.T) {
	tests := []struct {
		style, op string
		operands  []string
		want      string // result type, or "error: substring"
	}{
		// the mapping from OTIR operations to Allo keys
		{"hls", "otir.add", []string{"i8", "u8"}, "i10"},
		{"hls", "otir.sub", []string{"u8", "u8"}, "i10"},
		{"hls", "otir.mul", []string{"u8", "i8"}, "i16"},
		{"hls", "otir.div_s", []string{"i8", "i16"}, "i16"},
		{"hls", "otir.div_u", []string{"u8", "u16"}, "u16"},
		{"hls", "otir.rem_s", []string{"i8", "u4"}, "i8"},
		{"hls", "otir.rem_u", []string{"u8", "u16"}, "u16"},
		{"hls", "otir.and", []string{"i8", "u8"}, "u8"},
		{"hls", "otir.or", []string{"i16", "u8"}, "i16"},
		{"hls", "otir.xor", []string{"bool", "bool"}, "i1"},
		{"hls", "otir.shl", []string{"u8", "i32"}, "u8"},
		{"hls", "otir.shr_s", []string{"i8", "index"}, "i8"},
		{"hls", "otir.shr_u", []string{"u8", "u3"}, "u8"},
		{"hls", "otir.max", []string{"i8", "u8"}, "u8"},
		{"hls", "otir.min", []string{"f16", "bf16"}, "f16"},
		{"hls", "otir.neg", []string{"u8"}, "i9"},
		{"cpp", "otir.neg", []string{"u8"}, "u8"},
		{"hls", "otir.not", []string{"i8"}, "i8"},
		{"hls", "otir.abs", []string{"f32"}, "f32"},
		{"hls", "otir.sqrt", []string{"i16"}, "f32"},
		{"hls", "otir.exp", []string{"u64"}, "f64"},
		{"cpp", "otir.log", []string{"index"}, "f64"},
		{"hls", "otir.cmp", []string{"i8", "u16"}, "i1"},
		{"", "otir.add", []string{"i32", "i32"}, "i33"}, // "" is the default style, hls
		{"cpp", "otir.add", []string{"u32", "i32"}, "u32"},
		{"cpp", "otir.sub", []string{"u8", "u8"}, "u8"},
		// Allo keys are accepted as well
		{"hls", "pow", []string{"i8", "i16"}, "i16"},
		{"hls", "lt", []string{"f32", "i8"}, "i1"},
		{"hls", "logical_and", []string{"f32", "i8"}, "i1"},
		{"cpp", "erf", []string{"index"}, "f64"},
		// shapes: NumPy broadcast, #private result, scalars broadcast
		{"hls", "otir.add", []string{"!otir.tile<16xi8, #private>", "!otir.tile<16xi8, #private>"}, "!otir.tile<16xi9, #private>"},
		{"hls", "otir.add", []string{"!otir.tile<4x8xi8, #private>", "i8"}, "!otir.tile<4x8xi9, #private>"},
		{"hls", "otir.add", []string{"u8", "!otir.tile<4x8xi8, #private>"}, "!otir.tile<4x8xi10, #private>"},
		{"hls", "otir.mul", []string{"!otir.tile<4x1xu4, #private>", "!otir.tile<8xu4, #private>"}, "!otir.tile<4x8xu8, #private>"},
		{"hls", "otir.add", []string{"!otir.tile<2x1x3xi8, #private>", "!otir.tile<5x1xi8, #private>"}, "!otir.tile<2x5x3xi9, #private>"},
		{"hls", "otir.cmp", []string{"!otir.tile<16xi8, #private>", "!otir.tile<16xi9, #private>"}, "!otir.tile<16xi1, #private>"},
		{"cpp", "otir.cmp", []string{"f32", "!otir.tile<2x2xi8, #private>"}, "!otir.tile<2x2xi1, #private>"},
		{"hls", "otir.neg", []string{"!otir.tile<3xu8, #workgroup>"}, "!otir.tile<3xi9, #private>"},
		{"hls", "otir.exp", []string{"!otir.tile<3xi8, #private>"}, "!otir.tile<3xf32, #private>"},
		{"hls", "otir.add", []string{"!otir.tile<i8, #private>", "i8"}, "!otir.tile<i9, #private>"},
		// errors
		{"hls", "otir.add", []string{"index", "f32"}, "error: No hls type promotion rule for operator 'add' with operand types index, float32"},
		{"hls", "otir.add", []string{"!otir.tile<4xindex, #private>", "!otir.tile<4xf32, #private>"}, "error: No hls type promotion rule for operator 'add' with operand types index, float32"},
		{"hls", "otir.neg", []string{"index"}, "error: No hls type promotion rule for operator 'neg' with operand type index"},
		{"hls", "otir.sqrt", []string{"index"}, "error: No hls type promotion rule for operator 'sqrt' with operand type index"},
		{"cpp", "otir.not", []string{"f32"}, "error: No cpp type promotion rule for operator 'invert' with operand type float32"},
		{"hls", "otir.shl", []string{"index", "i8"}, "error: No hls type promotion rule for operator 'lshift' with operand types index, int8"},
		{"hls", "otir.abs", []string{"index"}, "error: No hls type promotion rule for operator 'abs' with operand type index"},
		{"hls", "otir.and", []string{"f32", "f32"}, "error: operator 'bitwise_and' with operand types float32, float32"},
		{"hls", "otir.cmp", []string{"index", "f64"}, "error: operator 'eq' with operand types index, float64"},
		{"hls", "otir.add", []string{"!otir.tile<4xi8, #private>", "!otir.tile<3xi8, #private>"}, "error: shapes 4 and 3, which do not broadcast"},
		{"hls", "otir.add", []string{"i8", "!otir.token"}, "error: operand 1 of 'otir.add' has type '!otir.token'"},
		{"hls", "otir.add", []string{"i8"}, "error: takes 2 operand(s), got 1"},
		{"hls", "otir.neg", []string{"i8", "i8"}, "error: takes 1 operand(s), got 2"},
		{"hls", "otir.select", []string{"i1", "i8", "i8"}, "error: 'otir.select' is not an element-wise operation with a type promotion rule"},
		{"hls", "otir.frob", []string{"i8", "i8"}, "error: not an element-wise operation"},
		{"verilog", "otir.add", []string{"i8", "i8"}, "error: unknown typing style 'verilog'"},
		{"hls", "otir.mul", []string{"u4096", "u8"}, "u4104"},
		{"hls", "otir.add", []string{"u4096", "i8"}, "i4098"},
		{"hls", "otir.mul", []string{"u16777215", "u8"}, "error: operator 'mul' on u16777215, u8 promotes to a 16777223-bit integer, wider than the 16777215 bits the toolchain supports"},
	}
	for _, tc := range tests {
		var ops []ir.Type
		for _, s := range tc.operands {
			ops = append(ops, ir.MustParseType(s))
		}
		got, err := InferResult(tc.style, tc.op, ops)
		name := tc.style + " " + tc.op + " " + strings.Join(tc.operands, ", ")
		if want, isErr := strings.CutPrefix(tc.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: got %v, %v; want an error containing %q", name, got, err, want)
			}
			continue
		}
		if err != nil || got != ir.MustParseType(tc.want) {
			t.Errorf("%s: got %v, %v; want %s", name, got, err, tc.want)
		}
	}
}

func TestInferResultNilOperand(t *testing.T) {
	if _, err := InferResult("hls", "otir.add", []ir.Type{nil, ir.Int(8, true)}); err == nil {
		t.Fatal("a nil operand type must be an error, not a panic")
	}
}

func TestInferCmp(t *testing.T) {
	i8, u16, idx, f64 := ir.Int(8, true), ir.Int(16, false), ir.Index(), ir.Float(ir.F64)
	for pred, key := range cmpKeys {
		got, err := InferCmp("hls", "otir.cmp", pred, []ir.Type{i8, u16})
		if err != nil || got != ir.Bool() {
			t.Errorf("InferCmp(%s) = %v, %v", pred, got, err)
		}
		_, err = InferCmp("cpp", "otir.cmp", pred, []ir.Type{idx, f64})
		var nr *NoRuleError
		if !errors.As(err, &nr) || nr.Key != key {
			t.Errorf("InferCmp(%s) on index, f64: got %v, want a no-rule error for '%s'", pred, err, key)
		}
	}
	if _, err := InferCmp("hls", "otir.cmp", "sltu", []ir.Type{i8, i8}); err == nil || !strings.Contains(err.Error(), "unknown comparison predicate 'sltu'") {
		t.Errorf("unknown predicate: got %v", err)
	}
}

// Every predicate otir.cmp accepts has a key.
func TestCmpKeysCoverPredicates(t *testing.T) {
	for _, p := range cmpPredicates() {
		if _, ok := CmpKey(p); !ok {
			t.Errorf("predicate %s has no Allo key", p)
		}
	}
}

// Every element-wise OTIR operation but select, cast and lookup (which have
// no promotion rule) has an Allo key.
func TestOpKeysCoverElementwiseOps(t *testing.T) {
	for _, name := range ir.OpNames() {
		d := ir.LookupOp(name)
		if !d.Has(ir.Elementwise) || name == "otir.select" || name == "otir.cast" || name == "otir.lookup" {
			continue
		}
		if _, ok := OpKey(name); !ok {
			t.Errorf("%s has no Allo operator key", name)
		}
	}
}

func TestBroadcast(t *testing.T) {
	tests := []struct {
		a, b, want []int64
		ok         bool
	}{
		{[]int64{4, 8}, []int64{8}, []int64{4, 8}, true},
		{[]int64{4, 1}, []int64{1, 8}, []int64{4, 8}, true},
		{nil, []int64{3}, []int64{3}, true},
		{[]int64{2, 3}, []int64{3, 2}, nil, false},
		{[]int64{1}, []int64{7, 1, 5}, []int64{7, 1, 5}, true},
	}
	for _, tc := range tests {
		got, ok := Broadcast(tc.a, tc.b)
		if ok != tc.ok || ShapeString(got) != ShapeString(tc.want) {
			t.Errorf("Broadcast(%v, %v) = %v, %v", tc.a, tc.b, got, ok)
		}
	}
}

// cmpPredicates are otir.cmp's predicates, from its record.
func cmpPredicates() []string { return ir.LookupOp("otir.cmp").Attr("kind").Enum }
