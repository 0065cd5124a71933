package typing

import (
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestCheckOp(t *testing.T) {
	idx, i8, f32 := ir.Index(), ir.Int(8, true), ir.Float(ir.F32)
	tile := ir.Tile([]int64{4}, i8, ir.Private)
	val := func(t ir.Type) *ir.Value {
		return ir.NewOp("otir.constant", ir.Location{}, nil, []ir.Type{t}, nil).Results[0]
	}
	op := func(name string, res ir.Type, attrs ir.Attrs, ts ...ir.Type) *ir.Operation {
		vs := make([]*ir.Value, len(ts))
		for i, t := range ts {
			vs[i] = val(t)
		}
		return ir.NewOp(name, ir.Location{}, vs, []ir.Type{res}, attrs)
	}
	kind := func(k string) ir.Attrs { return ir.Attrs{{Name: "kind", Value: &ir.StringAttr{Value: k}}} }
	for _, c := range []struct {
		style Style
		op    *ir.Operation
		want  string
	}{
		{HLS, op("otir.shl", idx, nil, idx, idx), "No hls type promotion rule for operator 'lshift' with operand types index, index"},
		{CPP, op("otir.shr_s", idx, nil, idx, i8), "No cpp type promotion rule for operator 'rshift' with operand types index, int8"},
		{HLS, op("otir.shl", i8, nil, i8, idx), ""},
		{HLS, op("otir.and", tile, nil, tile, idx), "No hls type promotion rule for operator 'bitwise_and' with operand types int8, index"},
		{HLS, op("otir.sub", i8, nil, i8, i8), ""}, // the written result need not be the promoted one
		{HLS, op("otir.cmp", ir.Bool(), kind("olt"), f32, idx), "No hls type promotion rule for operator 'lt' with operand types float32, index"},
		{HLS, op("otir.neg", idx, nil, idx), "No hls type promotion rule for operator 'neg' with operand type index"},
		{CPP, op("otir.neg", idx, nil, idx), ""},
		{"bogus", op("otir.neg", idx, nil, idx), "No hls type promotion rule for operator 'neg' with operand type index"},
		{HLS, op("otir.select", f32, nil, ir.Bool(), idx, f32), ""}, // no rule to check
		{HLS, op("otir.cast", f32, nil, idx), ""},                   // no rule to check
		{HLS, op("otir.add", idx, nil, idx), ""},                    // malformed: the verifier's business
		{HLS, op("otir.add", idx, nil, idx, ir.Token()), ""},        // not a scalar element
	} {
		err := CheckOp(c.style, c.op)
		got := ""
		if err != nil {
			got = err.Error()
			if _, ok := err.(*NoRuleError); !ok {
				t.Errorf("%s: error %T, want *NoRuleError", c.op.Name, err)
			}
		}
		if got != c.want {
			t.Errorf("CheckOp(%s, %s): got %q, want %q", c.style, c.op.Name, got, c.want)
		}
	}
}

// The verifier calls CheckOp on every element-wise op and allocates nothing
// per op on success.
func TestCheckOpAllocatesNothing(t *testing.T) {
	i8, u8, idx := ir.Int(8, true), ir.Int(8, false), ir.Index()
	tile := ir.Tile([]int64{4}, i8, ir.Private)
	mk := func(name string, res ir.Type, ts ...ir.Type) *ir.Operation {
		vs := make([]*ir.Value, len(ts))
		for i, t := range ts {
			vs[i] = ir.NewOp("otir.constant", ir.Location{}, nil, []ir.Type{t}, nil).Results[0]
		}
		return ir.NewOp(name, ir.Location{}, vs, []ir.Type{res}, nil)
	}
	ops := []*ir.Operation{mk("otir.add", tile, tile, u8), mk("otir.shl", i8, i8, idx), mk("otir.max", idx, idx, i8), mk("otir.not", idx, idx)}
	if n := testing.AllocsPerRun(100, func() {
		for _, op := range ops {
			if CheckOp(HLS, op) != nil {
				t.Fatal("unexpected error")
			}
		}
	}); n != 0 {
		t.Errorf("CheckOp allocates %v times per run, want 0", n)
	}
}

// hasRule agrees with the table (lookup, after the n-ary rule) on every kind
// pair of every key of both styles.
func TestHasRuleAgreesWithLookup(t *testing.T) {
	types := []ir.Type{ir.Int(8, true), ir.Int(16, false), ir.Bool(), ir.Float(ir.F16), ir.Float(ir.F64), ir.Index()}
	for _, style := range []Style{HLS, CPP} {
		for key := range tables[HLS] {
			var cases [][]ir.Type
			if IsUnaryKey(key) {
				for _, a := range types {
					cases = append(cases, []ir.Type{a})
				}
			} else {
				for _, a := range types {
					for _, b := range types {
						cases = append(cases, []ir.Type{a, b})
					}
				}
			}
			for _, ts := range cases {
				_, err := Promote(style, key, ts, nil)
				_, noRule := err.(*NoRuleError)
				if hasRule(style, key, ts) == noRule {
					t.Errorf("%s %s %v: hasRule %v, Promote error %v", style, key, ts, !noRule, err)
				}
			}
		}
	}
}
