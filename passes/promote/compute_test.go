package promote

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/dialect/otir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/typing"
)

func TestCastExact(t *testing.T) {
	tests := []struct {
		from, to string
		want     bool
	}{
		{"i8", "i8", true}, {"i8", "i9", true}, {"i8", "u8", false}, {"u8", "i8", false}, {"u8", "i9", true},
		{"u8", "u8", true}, {"u8", "u16", true}, {"i16", "i8", false}, {"bool", "i2", true}, {"bool", "u1", true},
		{"i64", "index", true}, {"u63", "index", true}, {"u64", "index", false}, {"index", "i64", true},
		{"index", "i65", true}, {"index", "i63", false}, {"index", "u64", false},
		{"i12", "f16", true}, {"i13", "f16", false}, {"u11", "f16", true}, {"u12", "f16", false},
		{"i9", "bf16", true}, {"u9", "bf16", false}, {"i25", "f32", true}, {"u25", "f32", false},
		{"i54", "f64", true}, {"u54", "f64", false}, {"index", "f64", false},
		{"f16", "f32", true}, {"bf16", "f32", true}, {"f32", "f64", true}, {"f16", "bf16", false},
		{"bf16", "f16", false}, {"f32", "f16", false}, {"f64", "f32", false}, {"f32", "i64", false},
	}
	for _, tc := range tests {
		if got := castExact(ir.MustParseType(tc.from), ir.MustParseType(tc.to)); got != tc.want {
			t.Errorf("castExact(%s, %s) = %v", tc.from, tc.to, got)
		}
	}
}

func TestExactJoin(t *testing.T) {
	tests := []struct{ in, want string }{
		{"i8 u8", "i9"}, {"u8 u16", "u16"}, {"i8 i16", "i16"}, {"i32 u32", "i33"}, {"bool bool", "i1"},
		{"bool i8", "i8"}, {"i8 u1024", "i1025"}, {"index i8", "index"}, {"index u63", "index"},
		{"index u64", "-"}, {"f16 bf16", "f32"}, {"f16 i8", "f16"}, {"bf16 i8", "bf16"}, {"f32 i32", "f64"},
		{"f64 i64", "-"}, {"index f32", "-"}, {"f64 u53", "f64"},
	}
	for _, tc := range tests {
		got, ok := exactJoin(typesOf(t, strings.Fields(tc.in))...)
		if tc.want == "-" {
			if ok {
				t.Errorf("exactJoin(%s) = %v, want none", tc.in, got)
			}
			continue
		}
		if !ok || got != ir.MustParseType(tc.want) {
			t.Errorf("exactJoin(%s) = %v, %v; want %s", tc.in, got, ok, tc.want)
		}
	}
}

// semFor describes an operation given as an OTIR name ("otir.div_s", or
// "otir.cmp.slt" for a comparison with its predicate) or an Allo key ("pow").
func semFor(t *testing.T, name string) opSem {
	t.Helper()
	if rest, ok := strings.CutPrefix(name, "otir.cmp."); ok {
		key, ok := typing.CmpKey(rest)
		if !ok {
			t.Fatalf("bad predicate %q", rest)
		}
		return semOf(otir.OpCmp, rest, key)
	}
	key, ok := typing.OpKey(name)
	if !ok {
		t.Fatalf("no key for %q", name)
	}
	return semOf(name, "", key)
}

// TestSound pins the value-preservation condition of compute.go, including
// the corners the random programs rarely reach (-128 / -1, float results of
// integer division, bit readings of the _s/_u operations).
func TestSound(t *testing.T) {
	tests := []struct {
		op, operands, q, r string
		want               bool
	}{
		{"otir.add", "i8 i8", "i9", "i9", true},
		{"otir.add", "i8 i8", "i8", "i16", false},     // an 8-bit add wraps, the i16 result does not
		{"otir.add", "i8 i8", "i16", "i8", true},      // wider than the result: congruent
		{"otir.add", "i8 u8", "u8", "u8", true},       // cpp: casts wrap, the add wraps to u8 anyway
		{"otir.sub", "u8 u8", "i10", "f32", true},     // exact in i10, then one rounding
		{"otir.sub", "u8 u8", "u8", "f32", false},     // 0 - 255 does not fit u8
		{"otir.div_s", "i8 u8", "u8", "u8", true},     // same bits, same signed readings
		{"otir.div_u", "i8 u8", "u8", "u8", true},     // same bits, same unsigned readings
		{"otir.div_s", "i8 u8", "i9", "u8", false},    // u8 200 reads -56 in 8 bits, 200 in i9
		{"otir.div_u", "i8 u16", "u16", "u16", false}, // i8 -1 reads 255 in 8 bits, 65535 in u16
		{"otir.div_s", "i8 u16", "u16", "u16", true},  // i8 -1 becomes 65535, which reads -1 in 16 bits
		{"otir.div_s", "i8 i8", "i8", "i16", false},   // -128 / -1 = 128
		{"otir.div_s", "i8 i8", "i9", "i16", true},
		{"otir.div_s", "i8 i8", "i8", "i8", true},
		{"otir.div_s", "i8 i8", "i16", "f32", true}, // the quotient rounds toward zero: integral, fits i16
		{"otir.div_s", "i8 i8", "i8", "f32", false}, // -128 / -1 = 128 does not fit i8
		{"otir.div_u", "u8 u8", "u8", "f32", true},  // at most 255
		{"otir.rem_s", "i8 i8", "i8", "i16", true},  // |a mod b| <= 127
		{"otir.rem_s", "i8 i8", "i9", "f32", true},  // integral, fits
		{"otir.rem_u", "u8 i8", "i9", "f32", false}, // i8 read unsigned changes in 9 bits
		{"otir.abs", "i8", "i8", "i16", false},      // abs(-128) = 128
		{"otir.abs", "i8", "i9", "i16", true},
		{"otir.abs", "u8", "u8", "i16", true},
		{"otir.neg", "i8", "i8", "i16", false},
		{"otir.neg", "i8", "i9", "i9", true},
		{"otir.max", "i8 u8", "u8", "u8", false}, // max(-1, 0) would become 255
		{"otir.max", "i8 u8", "i9", "u8", true},
		{"otir.max", "i8 i16", "i16", "i32", true},
		{"otir.and", "i8 u8", "u8", "u8", true},    // modular
		{"otir.xor", "i8 u8", "i9", "f64", true},   // exact in i9, then one rounding
		{"otir.xor", "i8 u8", "f64", "f64", false}, // xor has no float form
		{"otir.xor", "i8 u8", "i9", "i64", true},
		{"otir.not", "u8", "u8", "i16", false}, // ~255 = -256
		{"otir.not", "u8", "i9", "i16", true},
		{"otir.shl", "i8 u8", "i16", "i8", true}, // modular in the shifted value
		{"otir.shl", "u8 i8", "i8", "u8", true},  // modular too (a negative amount is an error either way)
		{"otir.shl", "i8 i8", "i16", "i8", true},
		{"otir.shl", "u4 u2", "u8", "f32", true},    // at most 15 * 8 = 120, exact in u8
		{"otir.shl", "u4 u2", "f32", "f32", false},  // no float shift
		{"otir.shl", "u4 u2", "u8", "i16", true},    // at most 15 * 8 = 120
		{"otir.shl", "u4 u3", "u8", "i16", false},   // up to 15 * 128
		{"otir.shr_s", "i8 u8", "i8", "i16", true},  // between a and 0
		{"otir.shr_s", "i8 i8", "i8", "i16", false}, // (amount range unknown: conservative)
		{"otir.shr_u", "u8 u8", "i8", "u8", true},   // same bits, read unsigned
		{"otir.shr_u", "u8 u8", "i9", "i9", true},
		{"otir.shr_u", "i8 u8", "i9", "i9", false}, // i8 -1 reads 255 in 8 bits, 511 in 9
		{"otir.cmp.eq", "i32 u32", "u32", "i1", false},
		{"otir.cmp.eq", "i32 u32", "i33", "i1", true},
		{"otir.cmp.oeq", "i32 u32", "f64", "i1", true},
		{"otir.cmp.olt", "i32 u32", "f32", "i1", false},
		{"otir.cmp.slt", "i32 u32", "u32", "i1", true}, // both read as signed 32-bit numbers
		{"otir.cmp.ult", "i32 u32", "i32", "i1", true},
		{"otir.cmp.slt", "i32 u32", "i33", "i1", false}, // u32 reads signed in 32 bits only
		{"otir.cmp.slt", "i8 i16", "i16", "i1", true},
		{"otir.cmp.slt", "i8 i16", "f32", "i1", false}, // s* reads integer bits
		{"otir.cmp.oeq", "f16 bf16", "f32", "i1", true},
		{"otir.cmp.oeq", "f16 bf16", "f16", "i1", false},
		{"otir.add", "f32 i8", "f32", "f32", true},
		{"otir.add", "f32 i32", "f32", "f32", true},   // i32 is rounded to f32 either way
		{"otir.add", "f32 i32", "f64", "f32", false},  // f64 would not round i32 first
		{"otir.add", "f16 bf16", "f32", "f16", true},  // computed in f32 either way
		{"otir.add", "f16 bf16", "f16", "f16", false}, // bf16 is not exact in f16
		{"otir.add", "f16 f16", "f32", "f16", true},
		{"otir.add", "f16 f16", "f16", "f16", true},
		{"otir.add", "f16 i8", "f16", "f16", true},   // K = f32; i8 exact in both
		{"otir.add", "f16 i16", "f16", "f16", false}, // i16 rounds differently in f16 and f32
		{"otir.add", "f32 f32", "f64", "f32", false}, // would round to f64 first
		{"otir.mul", "f32 f32", "f32", "f64", false}, // written: rounds to f64
		{"otir.max", "f16 bf16", "f64", "f16", true}, // the result is an operand
		{"otir.max", "f32 i32", "f64", "f32", false}, // the written max rounds i32 to f32 (conservative)
		{"otir.add", "f64 f16", "f16", "f16", false}, // f64 is not exact in f16
		{"otir.add", "bf16 bf16", "bf16", "bf16", true},
		{"otir.add", "bf16 i4", "bf16", "bf16", true},
		{"otir.neg", "f16", "f32", "f64", true},
		{"otir.neg", "f32", "f32", "i32", true},
		{"otir.exp", "i8", "f32", "f32", true},
		{"otir.exp", "i32", "f32", "f32", true},  // i32 is rounded to f32 either way
		{"otir.exp", "i32", "f64", "f32", false}, // would compute in f64
		{"otir.exp", "i8", "i8", "i8", true},
		{"otir.exp", "u8", "i9", "i8", false},
		{"otir.sqrt", "i8", "f32", "i8", false}, // written: f64
		{"pow", "i8 i8", "i8", "i8", true},
		{"pow", "i8 i8", "i16", "i8", true}, // exact operands, wider than the result
		{"otir.add", "index i8", "index", "index", true},
		{"otir.add", "index u64", "index", "index", true},   // modular
		{"otir.div_s", "index u64", "index", "index", true}, // 64 bits both, signed reading
		{"otir.div_u", "index u64", "index", "index", true},
		{"otir.div_s", "index i32", "index", "i8", true},
		{"otir.div_s", "index u32", "index", "i8", false}, // u32 reads signed in 32 bits
		{"otir.div_s", "index i8", "index", "i8", true},
		{"otir.add", "i8 i8", "f32", "i9", true},   // the sum is exact in f32
		{"otir.add", "i8 i8", "f16", "f32", true},  // exact: |sum| <= 256 <= 2^11
		{"otir.mul", "i8 i8", "f16", "f32", false}, // up to 16384
		{"otir.div_s", "i8 i8", "f32", "f32", false},
	}
	for _, tc := range tests {
		as := typesOf(t, strings.Fields(tc.operands))
		got := sound(semFor(t, tc.op), as, ir.MustParseType(tc.q), ir.MustParseType(tc.r))
		if got != tc.want {
			t.Errorf("sound(%s, %s, q=%s, r=%s) = %v, want %v", tc.op, tc.operands, tc.q, tc.r, got, tc.want)
		}
	}
}

func TestComputeType(t *testing.T) {
	tests := []struct {
		style           typing.Style
		op, operands, r string
		want            string // "-": left as written
	}{
		{typing.CPP, "otir.add", "u32 i32", "u32", "u32"},
		{typing.CPP, "otir.add", "i8 i8", "i16", "i16"},  // P = i8 would wrap: the written i16
		{typing.CPP, "otir.div_s", "i8 u8", "u8", "u8"},  // P = u8 keeps the bits
		{typing.CPP, "otir.div_u", "i8 u16", "u16", "-"}, // i8's bits cannot widen for an unsigned reading
		{typing.HLS, "otir.div_s", "u8 i16", "i16", "-"}, // nor u8's for a signed one
		{typing.HLS, "otir.div_s", "u8 i8", "u8", "u8"},
		{typing.HLS, "otir.div_s", "u16 i8", "u16", "u16"}, // i8 widens for a signed reading
		{typing.HLS, "otir.rem_u", "u8 i16", "i16", "i16"}, // i16 keeps its bits; u8 widens for an unsigned reading
		{typing.HLS, "otir.rem_u", "i8 u16", "u16", "-"},
		{typing.HLS, "otir.rem_u", "u8 i8", "u8", "u8"},
		{typing.HLS, "otir.div_s", "i8 i8", "i16", "i16"},
		{typing.HLS, "otir.cmp.eq", "i32 u32", "i1", "i33"},
		{typing.HLS, "otir.cmp.slt", "i32 u32", "i1", "u32"},
		{typing.HLS, "otir.cmp.sgt", "u8 i16", "i1", "-"},
		{typing.HLS, "otir.cmp.slt", "i8 i16", "i1", "i16"},
		{typing.CPP, "otir.cmp.ogt", "u8 i16", "i1", "i16"},
		{typing.HLS, "otir.cmp.olt", "f32 i32", "i1", "f64"},
		{typing.HLS, "otir.add", "f16 bf16", "f16", "f32"},
		{typing.HLS, "otir.sqrt", "i32", "f32", "f32"},
		{typing.HLS, "otir.exp", "i8", "f32", "f32"},
		{typing.HLS, "otir.shl", "u8 i32", "u16", "u16"}, // u8 would drop bits the u16 result keeps
		{typing.HLS, "otir.shl", "u8 i32", "u8", "u8"},
		{typing.HLS, "otir.shr_s", "i8 u3", "i8", "i8"},
		{typing.HLS, "otir.div_s", "index u64", "index", "index"},
		{typing.CPP, "otir.mul", "f32 i8", "f32", "f32"},
		{typing.HLS, "otir.max", "i8 u8", "u8", "i9"},
		{typing.HLS, "otir.or", "i8 u8", "u8", "u8"},
		{typing.CPP, "otir.neg", "u8", "u8", "u8"},
		{typing.HLS, "otir.neg", "u8", "i9", "i9"},
		{typing.HLS, "otir.abs", "i8", "i16", "i16"},
		{typing.HLS, "otir.max", "u4096 i8", "u4096", "i4097"},
		{typing.HLS, "otir.max", "u16777215 i8", "u16777215", "-"}, // the exact join i16777216 is too wide
	}
	for _, tc := range tests {
		as := typesOf(t, strings.Fields(tc.operands))
		sem := semFor(t, tc.op)
		var signs []int
		if sem.key == "sub" {
			signs = []int{1, -1}
		}
		p, err := typing.Promote(tc.style, sem.key, as, signs)
		if err != nil {
			t.Fatalf("%s %s %s: %v", tc.style, tc.op, tc.operands, err)
		}
		q, ok := computeType(sem, as, p, ir.MustParseType(tc.r))
		if tc.want == "-" {
			if ok {
				t.Errorf("%s %s %s -> %s: compute type %v, want none", tc.style, tc.op, tc.operands, tc.r, q)
			}
			continue
		}
		if !ok || q != ir.MustParseType(tc.want) {
			t.Errorf("%s %s %s -> %s: compute type %v, %v; want %s", tc.style, tc.op, tc.operands, tc.r, q, ok, tc.want)
		}
	}
}

func TestResultRangeUnknown(t *testing.T) {
	for _, tc := range []struct{ key, operands string }{
		{"pow", "i8 i8"}, {"exp", "i8"}, {"add", "f32 i8"}, {"lshift", "i8 i8"}, {"lshift", "i8 u25"}, {"rshift", "i8 i2"},
	} {
		as := typesOf(t, strings.Fields(tc.operands))
		if _, _, ok := resultRange(tc.key, ranges(semOf("", "", tc.key), as)); ok {
			t.Errorf("resultRange(%s, %s) should be unknown", tc.key, tc.operands)
		}
	}
}
