package typing

import (
	"errors"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// ruleCases is the rule table's test table, one case per line:
//
//	style key type... => result
//
// A term written -T is subtracted (add/sub expressions); `!` means "no rule".
// Each expected result was derived by hand from allo-type-promotion.md and
// ERRATA.md, not from the implementation.
const ruleCases = `
# HLS n-ary add/sub, two terms (spec "HLS Integer Add/Sub", ERRATA)
hls add i32 i32 => i33
hls add u32 u32 => u33
hls add u8 i8 => i10
hls add i8 u8 => i10
hls add i8 u16 => i18
hls add u16 i8 => i18
hls add i16 u8 => i17
hls add u8 i16 => i17
hls add i8 i8 => i9
hls add u8 u8 => u9
hls add i16 i32 => i33
hls add u16 u32 => u33
hls add bool bool => u2
hls add bool i8 => i9
hls add i8 bool => i9
hls add u1024 u1024 => u1025
hls add i1024 i1024 => i1025
hls add i1024 u1024 => i1026
hls add u1024 i8 => i1026
hls add bool u1024 => u1025
hls sub i8 -i8 => i9
hls sub u8 -u8 => i10
hls sub u8 -i8 => i10
hls sub i8 -u8 => i10
hls sub bool -bool => i3
hls sub u32 -u32 => i34
hls sub i32 -u32 => i34
hls sub u1024 -u1024 => i1026
hls sub i1024 -i1024 => i1025
hls add u8 -u8 => i10

# HLS n-ary add/sub chains of 3 to 5 terms
hls add i32 i32 -i32 => i34
hls sub i32 i32 -i32 => i34
hls add u8 u8 u8 u8 => u10
hls add i32 i32 i32 i32 => i34
hls add i32 i32 i32 i32 i32 => i35
hls add u8 u8 u8 => u10
hls add u8 u8 -u8 => i11
hls add u8 -u8 u8 -u8 => i11
hls add u8 u8 u8 u8 -u8 => i12
hls add i8 u8 u4 => i11
hls add u4 u4 u4 u4 u4 => u7
hls add i4 -i4 -i4 => i6
hls add bool bool bool => u3
hls add bool bool bool bool => u3
hls add bool -bool bool bool bool => i5
hls add i1024 i1024 i1024 => i1026
hls add u1024 -i8 bool => i1027
hls add i16 i32 u8 -i4 => i34
hls add u16 u16 u16 u16 => u18
hls add u16 u16 u16 -u16 => i19
hls add i8 -i16 u32 => i35
hls add u32 -i8 -i8 -i8 -i8 => i36

# HLS n-ary mul (spec "HLS Integer Mul")
hls mul i32 i32 => i64
hls mul u16 u16 => u32
hls mul i32 i32 i32 => i96
hls mul u8 i8 u4 => i20
hls mul u8 u8 => u16
hls mul i8 u8 => i16
hls mul u8 i8 => i16
hls mul bool bool => u2
hls mul bool i8 => i9
hls mul i1024 bool => i1025
hls mul u1024 u1024 => u2048
hls mul u1024 u1024 u1024 u1024 => u4096
hls mul u4 u4 u4 u4 u4 => u20
hls mul i2 i2 i2 i2 => i8
hls mul u3 i5 => i8

# HLS add/sub/mul with a float or index term: pairwise from the left
hls add f32 i32 => f32
hls add i32 f32 => f32
hls add f16 bf16 => f16
hls add bf16 f16 => bf16
hls add f16 f32 => f32
hls add f64 f32 => f64
hls add bf16 f32 => f32
hls add f32 bf16 => f32
hls add f16 f16 => f16
hls add f64 i1024 => f64
hls add u8 f16 => f16
hls add bool f64 => f64
hls add index i32 => index
hls add u8 index => index
hls add index index => index
hls add index bool => index
hls add index f32 => !
hls add f32 index => !
hls sub index -i8 => index
hls sub f32 -u8 => f32
hls sub index -f16 => !
hls add i8 i8 f32 => f32
hls add i8 i8 index => index
hls add f16 bf16 f32 => f32
hls add bf16 f16 i8 => bf16
hls add i8 f16 bf16 => f16
hls add i8 bf16 f16 => bf16
hls add index i8 f32 => !
hls add f32 i8 index => !
hls add i8 index -u8 => index
hls add i8 i8 i8 f32 => f32
hls add u8 u8 f16 => f16
hls add f16 u8 u8 => f16
hls add i8 -u8 index => index
hls mul f32 i32 => f32
hls mul i32 f32 => f32
hls mul f16 bf16 => f16
hls mul bf16 f16 => bf16
hls mul f64 f16 => f64
hls mul u8 f32 => f32
hls mul f32 u8 => f32
hls mul index i8 => index
hls mul u8 index => index
hls mul index index => index
hls mul index f32 => !
hls mul f64 index => !
hls mul i8 i8 f32 => f32
hls mul i8 index i8 => index

# HLS div, floordiv, mod: common numeric type, index included
hls div i16 i32 => i32
hls div u8 u32 => u32
hls div i32 u32 => u32
hls div i32 u16 => i32
hls div u16 i32 => i32
hls div u32 i32 => u32
hls div i8 u8 => u8
hls div u8 i8 => u8
hls div bool bool => bool
hls div bool i8 => i8
hls div i1024 u1024 => u1024
hls div f32 i32 => f32
hls div i32 f64 => f64
hls div f16 bf16 => f16
hls div bf16 f16 => bf16
hls div index i32 => index
hls div i32 index => index
hls div index f32 => !
hls div f32 index => !
hls floordiv i16 i32 => i32
hls floordiv u8 i8 => u8
hls floordiv index u8 => index
hls floordiv f32 index => !
hls floordiv f16 f64 => f64
hls mod i16 u8 => i16
hls mod u16 i8 => u16
hls mod index index => index
hls mod f32 u8 => f32
hls mod index bf16 => !
hls mod bool u8 => u8

# HLS pow: common numeric type, no index
hls pow i8 i16 => i16
hls pow u8 i8 => u8
hls pow i8 u4 => i8
hls pow f32 i8 => f32
hls pow i8 f32 => f32
hls pow f16 bf16 => f16
hls pow bf16 f16 => bf16
hls pow index i8 => !
hls pow i8 index => !
hls pow index index => !
hls pow f32 index => !
hls pow bool bool => bool

# comparisons: the operands' common numeric type (the value is bool)
hls eq i8 u8 => u8
hls ne i32 u16 => i32
hls lt i16 i32 => i32
hls le u8 u32 => u32
hls gt i32 u32 => u32
hls ge f32 i32 => f32
hls eq f16 bf16 => f16
hls lt bf16 f16 => bf16
hls gt index i8 => index
hls ge u8 index => index
hls eq index index => index
hls ne index f32 => !
hls le f64 index => !
hls lt bool bool => bool
hls eq bool i8 => i8
hls gt i1024 u1024 => u1024
cpp eq i8 u8 => u8
cpp ne u16 i32 => i32
cpp lt f16 bf16 => f16
cpp le bf16 f16 => bf16
cpp gt index u8 => index
cpp ge index f16 => !
cpp eq f32 index => !
cpp lt i1024 i8 => i1024
cpp ge f64 f32 => f64
cpp ne bool bool => bool

# shifts: the left-hand type; the left must be an integer (ERRATA: index on the left has no rule)
hls lshift i8 i32 => i8
hls lshift i8 u32 => i8
hls lshift i8 index => i8
hls lshift u8 i8 => u8
hls lshift u8 u16 => u8
hls lshift u8 index => u8
hls lshift index index => !
hls lshift index i8 => !
hls lshift index u8 => !
hls lshift f32 i8 => !
hls lshift i8 f32 => !
hls lshift f32 f32 => !
hls rshift i1024 bool => i1024
hls rshift bool i8 => bool
hls rshift u16 u4 => u16
hls rshift index index => !
hls rshift index bool => !
hls rshift f16 index => !
cpp lshift i8 u8 => i8
cpp lshift u32 i8 => u32
cpp lshift index index => !
cpp lshift index i32 => !
cpp rshift i16 index => i16
cpp rshift u8 u64 => u8
cpp rshift f64 i8 => !
cpp rshift i8 bf16 => !

# bitwise: common integer type, index only with index
hls bitwise_and i8 i16 => i16
hls bitwise_and u8 i8 => u8
hls bitwise_and i8 u8 => u8
hls bitwise_or i16 u8 => i16
hls bitwise_or u8 i16 => i16
hls bitwise_xor u8 u16 => u16
hls bitwise_xor bool bool => bool
hls bitwise_and index index => index
hls bitwise_and index i8 => !
hls bitwise_or u8 index => !
hls bitwise_xor f32 f32 => !
hls bitwise_and f32 i8 => !
hls bitwise_or i8 f16 => !
hls bitwise_xor i1024 u1024 => u1024
cpp bitwise_and i32 u32 => u32
cpp bitwise_or i32 u16 => i32
cpp bitwise_xor index index => index
cpp bitwise_xor index u8 => !
cpp bitwise_and bf16 bf16 => !
cpp bitwise_or bool i8 => i8

# HLS unary operators
hls neg i8 => i9
hls neg u8 => i9
hls neg bool => i2
hls neg i1024 => i1025
hls neg u1024 => i1025
hls neg f16 => f16
hls neg bf16 => bf16
hls neg f64 => f64
hls neg index => !
hls invert i8 => i8
hls invert u8 => u8
hls invert bool => bool
hls invert index => index
hls invert f32 => !
hls logical_not i8 => bool
hls logical_not u8 => bool
hls logical_not f32 => bool
hls logical_not index => bool
hls logical_not bool => bool
hls abs i8 => i8
hls abs u8 => u8
hls abs f32 => f32
hls abs bf16 => bf16
hls abs index => !
hls abs bool => bool
hls abs i1024 => i1024

# cpp unary operators
cpp neg i8 => i8
cpp neg u8 => u8
cpp neg bool => bool
cpp neg index => index
cpp neg f32 => f32
cpp neg bf16 => bf16
cpp invert i32 => i32
cpp invert index => index
cpp invert f64 => !
cpp invert u1024 => u1024
cpp logical_not index => bool
cpp logical_not f16 => bool
cpp logical_not i1024 => bool
cpp abs index => !
cpp abs u16 => u16
cpp abs f64 => f64
cpp abs i8 => i8

# logical and/or: integer/float pairs and index/index, bool result
hls logical_and i8 u8 => bool
hls logical_and i8 f32 => bool
hls logical_and f32 i8 => bool
hls logical_or f16 bf16 => bool
hls logical_or u8 i8 => bool
hls logical_and index index => bool
hls logical_and index i8 => !
hls logical_or f32 index => !
hls logical_and bool bool => bool
cpp logical_and index index => bool
cpp logical_or u8 index => !
cpp logical_or f64 u1024 => bool
cpp logical_and i8 i8 => bool

# special functions: integers -> f32 (width <= 32) or f64, floats keep theirs
hls exp i8 => f32
hls sin i32 => f32
hls cos u32 => f32
hls tan i33 => f64
hls sinh u64 => f64
hls cosh bool => f32
hls tanh f16 => f16
hls exp2 bf16 => bf16
hls log f64 => f64
hls log2 i1024 => f64
hls sqrt u8 => f32
hls rsqrt i16 => f32
hls reciprocal f32 => f32
hls square u33 => f64
hls floor i64 => f64
hls ceil bool => f32
hls erf i32 => f32
hls sin index => !
hls cos index => !
hls tan index => !
hls sinh index => !
hls cosh index => !
hls tanh index => !
hls exp index => !
hls exp2 index => !
hls log index => !
hls log2 index => !
hls sqrt index => !
hls rsqrt index => !
hls reciprocal index => !
hls square index => !
hls floor index => !
hls ceil index => !
hls erf index => !
cpp sin index => f64
cpp cos index => f64
cpp tan index => f64
cpp sinh index => f64
cpp cosh index => f64
cpp tanh index => f64
cpp exp index => f64
cpp exp2 index => f64
cpp log index => f64
cpp log2 index => f64
cpp sqrt index => f64
cpp rsqrt index => f64
cpp reciprocal index => f64
cpp square index => f64
cpp floor index => f64
cpp ceil index => f64
cpp erf index => f64
cpp exp i8 => f32
cpp sqrt u32 => f32
cpp log i33 => f64
cpp sin f16 => f16
cpp erf bf16 => bf16
cpp floor bool => f32
cpp ceil u1024 => f64

# max/min: common numeric type
hls max i8 u8 => u8
hls max u8 i8 => u8
hls min i16 u8 => i16
hls min u8 i16 => i16
hls max f16 bf16 => f16
hls min bf16 f16 => bf16
hls max index i8 => index
hls min u8 index => index
hls max index f32 => !
hls min f32 index => !
hls max f32 u8 => f32
hls min i8 f64 => f64
hls max bool bool => bool
cpp max i32 u32 => u32
cpp min i32 u16 => i32
cpp max index index => index
cpp min f16 index => !
cpp max f32 f64 => f64
cpp min bf16 f16 => bf16

# cpp arithmetic: common numeric type, no growth
cpp add i32 i32 => i32
cpp add u32 u32 => u32
cpp add i32 u32 => u32
cpp add u32 i32 => u32
cpp mul i16 i32 => i32
cpp add f32 i32 => f32
cpp add f32 f64 => f64
cpp add i16 u8 => i16
cpp add u8 i16 => i16
cpp add i8 u8 => u8
cpp sub u8 -u8 => u8
cpp sub i8 -u8 => u8
cpp sub i8 -u4 => i8
cpp add bool bool => bool
cpp add bool i8 => i8
cpp add i1024 u1024 => u1024
cpp add u1024 i1024 => u1024
cpp mul u1024 u1024 => u1024
cpp mul bool u8 => u8
cpp add f16 bf16 => f16
cpp add bf16 f16 => bf16
cpp mul f16 bf16 => f16
cpp mul bf16 f16 => bf16
cpp add index i32 => index
cpp add u8 index => index
cpp add index index => index
cpp add index f32 => !
cpp mul f64 index => !
cpp sub index -bf16 => !
cpp div u16 i32 => i32
cpp div i8 u8 => u8
cpp floordiv index i8 => index
cpp mod i8 i16 => i16
cpp mod f32 index => !
cpp pow index i8 => index
cpp pow i8 index => index
cpp pow index index => index
cpp pow index f32 => !
cpp pow i32 u32 => u32
cpp pow f16 i8 => f16
cpp pow bf16 f16 => bf16

# cpp chains fold pairwise from the left
cpp add i8 i16 i32 => i32
cpp add i8 u8 i16 => i16
cpp add u8 i8 -u16 i32 => i32
cpp add i32 u32 i8 => u32
cpp add i8 i8 i8 i8 i8 => i8
cpp add i8 f16 bf16 => f16
cpp add i8 index u8 => index
cpp add i8 index f32 => !
cpp mul u4 u4 u4 => u4
cpp mul i8 f32 f64 i8 => f64
cpp sub u8 -u8 -u8 => u8
cpp add bf16 f16 f16 => bf16
cpp add f16 bf16 bf16 => f16
`

type ruleCase struct {
	line   int
	style  Style
	key    string
	types  []ir.Type
	signs  []int
	want   ir.Type // nil: no rule
	source string
}

func parseRuleCases(t *testing.T, text string) []ruleCase {
	t.Helper()
	var cases []ruleCase
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lhs, rhs, ok := strings.Cut(line, "=>")
		f := strings.Fields(lhs)
		if !ok || len(f) < 3 {
			t.Fatalf("line %d: malformed case %q", i, line)
		}
		c := ruleCase{line: i, style: Style(f[0]), key: f[1], source: line}
		anyNeg := false
		for _, term := range f[2:] {
			sign := 1
			if strings.HasPrefix(term, "-") {
				sign, anyNeg = -1, true
				term = term[1:]
			}
			c.types = append(c.types, ir.MustParseType(term))
			c.signs = append(c.signs, sign)
		}
		if !anyNeg {
			c.signs = nil
		}
		if r := strings.TrimSpace(rhs); r != "!" {
			c.want = ir.MustParseType(r)
		}
		cases = append(cases, c)
	}
	return cases
}

// TestRuleTable checks every case of ruleCases through Promote.
func TestRuleTable(t *testing.T) {
	cases := parseRuleCases(t, ruleCases)
	if len(cases) < 300 {
		t.Fatalf("the rule table test should have at least 300 cases, has %d", len(cases))
	}
	for _, c := range cases {
		got, err := Promote(c.style, c.key, c.types, c.signs)
		if c.want == nil {
			var nr *NoRuleError
			if !errors.As(err, &nr) {
				t.Errorf("%s: want no rule, got %v, %v", c.source, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: got %v, %v; want %v", c.source, got, err, c.want)
		}
	}
}

// TestRuleTableCoversEveryKey makes sure the test table exercises every
// operator key of both styles.
func TestRuleTableCoversEveryKey(t *testing.T) {
	seen := map[Style]map[string]bool{HLS: {}, CPP: {}}
	for _, c := range parseRuleCases(t, ruleCases) {
		seen[c.style][c.key] = true
	}
	for style, tab := range tables {
		for key := range tab {
			if !seen[style][key] {
				t.Errorf("no %s case for operator %q", style, key)
			}
		}
	}
}

func TestNoRuleMessages(t *testing.T) {
	tests := []struct {
		style Style
		key   string
		types string
		want  string
	}{
		{HLS, "add", "index f32", "No hls type promotion rule for operator 'add' with operand types index, float32"},
		{CPP, "add", "f32 index", "No cpp type promotion rule for operator 'add' with operand types float32, index"},
		{HLS, "neg", "index", "No hls type promotion rule for operator 'neg' with operand type index"},
		{HLS, "abs", "index", "No hls type promotion rule for operator 'abs' with operand type index"},
		{HLS, "pow", "i32 index", "No hls type promotion rule for operator 'pow' with operand types int32, index"},
		{HLS, "lshift", "index u8", "No hls type promotion rule for operator 'lshift' with operand types index, uint8"},
		{HLS, "bitwise_and", "bool f16", "No hls type promotion rule for operator 'bitwise_and' with operand types uint1, float16"},
		{CPP, "max", "bf16 index", "No cpp type promotion rule for operator 'max' with operand types bfloat16, index"},
		{HLS, "add", "i8 i1024 index f64", "No hls type promotion rule for operator 'add' with operand types int8, int1024, index, float64"},
		{HLS, "exp", "index", "No hls type promotion rule for operator 'exp' with operand type index"},
		{CPP, "invert", "f64", "No cpp type promotion rule for operator 'invert' with operand type float64"},
		{HLS, "neg", "i8 i8", "No hls type promotion rule for operator 'neg' with operand types int8, int8"},
		{HLS, "frobnicate", "i8", "No hls type promotion rule for operator 'frobnicate' with operand type int8"},
		// One term: cpp has no unary add (hls's n-ary rule takes a lone integer term as is).
		{CPP, "add", "u64", "No cpp type promotion rule for operator 'add' with operand type uint64"},
	}
	for _, tc := range tests {
		var ts []ir.Type
		for _, s := range strings.Fields(tc.types) {
			ts = append(ts, ir.MustParseType(s))
		}
		_, err := Promote(tc.style, tc.key, ts, nil)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %s %s: got error %v, want %q", tc.style, tc.key, tc.types, err, tc.want)
		}
	}
}

// TestPromoteArgumentErrors covers the inputs Allo's table never sees: no
// operands, mismatched signs, an unknown style, a result too wide to print.
func TestPromoteArgumentErrors(t *testing.T) {
	i8 := ir.Int(8, true)
	tests := []struct {
		name  string
		style Style
		key   string
		ts    []ir.Type
		signs []int
		want  string
	}{
		{"no operands", HLS, "add", nil, nil, "needs at least one operand"},
		{"signs", HLS, "sub", []ir.Type{i8, i8}, []int{1}, "2 terms but 1 signs"},
		{"style", Style("verilog"), "add", []ir.Type{i8, i8}, nil, "unknown typing style 'verilog'"},
		{"too wide", HLS, "mul", []ir.Type{ir.Int(1<<23, false), ir.Int(1<<23, false), ir.Bool()}, nil, "16777217-bit integer"},
		{"too wide add", HLS, "add", []ir.Type{ir.Int(1<<24-1, true), ir.Int(1<<24-1, true)}, nil, "16777216-bit integer"},
	}
	for _, tc := range tests {
		_, err := Promote(tc.style, tc.key, tc.ts, tc.signs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func TestAlloNames(t *testing.T) {
	tests := map[string]string{
		"i32": "int32", "u8": "uint8", "bool": "uint1", "i1": "uint1", "u1024": "uint1024",
		"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64", "index": "index",
		"!otir.tile<4xi8, #private>": "!otir.tile<4xi8, #private>",
	}
	for in, want := range tests {
		if got := AlloName(ir.MustParseType(in)); got != want {
			t.Errorf("AlloName(%s) = %s, want %s", in, got, want)
		}
	}
	if AlloName(nil) != "<none>" {
		t.Errorf("AlloName(nil) = %q", AlloName(nil))
	}
}

func TestCommonIntSelector(t *testing.T) {
	// The spec's "Common Helpers" examples plus the boundary of the mixed rule.
	tests := []struct{ l, r, want string }{
		{"i16", "i32", "i32"}, {"u8", "u32", "u32"}, {"i32", "u32", "u32"}, {"i32", "u16", "i32"},
		{"u32", "i32", "u32"}, {"u16", "i32", "i32"}, {"u31", "i32", "i32"}, {"u33", "i32", "u33"},
		{"bool", "i2", "i2"}, {"i2", "bool", "i2"}, {"bool", "bool", "bool"},
	}
	for _, tc := range tests {
		if got := commonInt(ir.MustParseType(tc.l), ir.MustParseType(tc.r)); got != ir.MustParseType(tc.want) {
			t.Errorf("commonInt(%s, %s) = %v, want %s", tc.l, tc.r, got, tc.want)
		}
	}
}

func TestCeilLog2(t *testing.T) {
	want := map[int]int{1: 0, 2: 1, 3: 2, 4: 2, 5: 3, 8: 3, 9: 4, 1024: 10, 1025: 11}
	for n, w := range want {
		if got := ceilLog2(n); got != w {
			t.Errorf("ceilLog2(%d) = %d, want %d", n, got, w)
		}
	}
}

func TestParseStyle(t *testing.T) {
	for in, want := range map[string]Style{"": HLS, "hls": HLS, "cpp": CPP} {
		if got, err := ParseStyle(in); err != nil || got != want {
			t.Errorf("ParseStyle(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseStyle("HLS"); err == nil {
		t.Errorf("ParseStyle(HLS) should fail (styles are lower case)")
	}
}
