package alir

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameBehaviour checks that p and q compute the same outputs on random
// inputs.
func sameBehaviour(t *testing.T, p, q *Program) {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 7))
	in := randomInputValues(r, p.NumInputs(), 50)
	a, aerr := RunExact(p, in, 50)
	b, berr := RunExact(q, in, 50)
	if (aerr == nil) != (berr == nil) {
		t.Fatalf("errors differ: %v vs %v", aerr, berr)
	}
	if aerr == nil && sameFloats(a, b) >= 0 {
		t.Fatalf("outputs differ")
	}
}

// recode writes p with enc and reads the bytes back with dec; an error
// fails t.
func recode(t *testing.T, p *Program, enc func(*Program) ([]byte, error), dec func([]byte) (*Program, error)) ([]byte, *Program) {
	t.Helper()
	data, err := enc(p)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	q, err := dec(data)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return data, q
}

// binaryFormats lists the binary encoders and decoders with the dialect
// and opcodes they hold.
var binaryFormats = []struct {
	name   string
	f      Format
	enc    func(*Program) ([]byte, error)
	dec    func([]byte) (*Program, error)
	d      Dialect
	tables bool
}{
	{"bytecode", FormatBytecode, EncodeBytecode, DecodeBytecode, ALIR, true},
	{"bytecode-v4", FormatBytecodeV4, EncodeBytecodeV4, DecodeBytecodeV4, ALIR, true},
	{"dais-v1", FormatDAIS, EncodeDAIS, DecodeDAIS, DAIS, true},
	{"dais-original", FormatDAISOriginal, EncodeDAISOriginal, DecodeDAISOriginal, DAIS, false},
}

// forFormat turns a random program into one the format can hold: no
// lookups or bit operations in the original DAIS format.
func forFormat(p *Program, tables bool) *Program {
	if tables {
		return p
	}
	p = p.Clone()
	p.Tables = nil
	for i := range p.Ops {
		if !originalDAISOpcode(p.Ops[i].Opcode) {
			p.Ops[i] = Op{ID0: -1, ID1: -1, Opcode: OpConst, Data: int64(i), QInt: p.Ops[i].QInt}
		}
	}
	return p
}

// TestBinaryRoundTrip writes random programs in every binary format and
// reads them back: the program behaves the same, and writing it again gives
// the same bytes.
func TestBinaryRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, bf := range binaryFormats {
		t.Run(bf.name, func(t *testing.T) {
			for it := range 150 {
				p := forFormat(randomProgram(r, bf.d, r.IntN(4), 1+r.IntN(40)), bf.tables)
				if bf.f == FormatBytecodeV4 && it%2 == 0 {
					p = randomProgramV4(r, r.IntN(4), 1+r.IntN(40))
				}
				data, err := bf.enc(p)
				if err != nil {
					t.Fatalf("iteration %d: encode: %v", it, err)
				}
				q, err := bf.dec(data)
				if err != nil {
					t.Fatalf("iteration %d: decode: %v", it, err)
				}
				sameBehaviour(t, p, q)
				again, err := bf.enc(q)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(again, data) {
					t.Fatalf("iteration %d: re-encoding changed the bytes", it)
				}
				if q2, f, err := Decode(data, bf.f); err != nil || f != bf.f || !reflect.DeepEqual(q, q2) {
					t.Fatalf("iteration %d: Decode(%v) = %v, %v", it, bf.f, f, err)
				}
			}
		})
	}
}

// TestJSONRoundTrip writes random ALIR programs as JSON and reads them
// back unchanged.
func TestJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for it := range 400 {
		enc, spec := EncodeJSON, SpecVersion
		p := randomProgram(r, ALIR, r.IntN(4), 1+r.IntN(40))
		if it%2 == 1 {
			enc, spec = EncodeJSONV4, SpecVersionV4
			if it%4 == 1 {
				p = randomProgramV4(r, r.IntN(4), 1+r.IntN(40))
			}
		}
		data, err := enc(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := DecodeJSON(data)
		if err != nil {
			t.Fatalf("iteration %d: %v\n%s", it, err, data)
		}
		p.Spec = spec
		// Table specs are filled in on writing; compare without them.
		want := p.Clone()
		for i := range want.Tables {
			want.Tables[i] = Table{Values: want.Tables[i].Values}
		}
		got := q.Clone()
		for i := range got.Tables {
			got.Tables[i] = Table{Values: got.Tables[i].Values}
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("iteration %d: program changed:\n%+v\n%+v", it, want, got)
		}
		again, _ := enc(q)
		if !bytes.Equal(again, data) {
			t.Fatalf("iteration %d: re-encoding changed the bytes", it)
		}
	}
}

func TestConformanceFilesRoundTrip(t *testing.T) {
	t.Run("dais-v1", func(t *testing.T) {
		data := readConformance(t, "dais-v1-example", "model.bin")
		p, err := DecodeDAIS(data)
		if err != nil {
			t.Fatal(err)
		}
		if out, _ := recode(t, p, EncodeDAIS, DecodeDAIS); !bytes.Equal(out, data) {
			t.Fatal("DAIS v1 file does not re-encode to the same bytes")
		}
		// Through JSON and back (DAIS -> ALIR -> DAIS).
		_, q := recode(t, p, EncodeJSON, DecodeJSON)
		sameBehaviour(t, p, q)
		if back, _ := recode(t, q, EncodeDAIS, DecodeDAIS); !bytes.Equal(back, data) {
			t.Fatal("DAIS v1 -> JSON -> DAIS v1 changed the bytes")
		}
	})
	t.Run("alir-json", func(t *testing.T) {
		data := readConformance(t, "alir-v2-mixed", "model.json.gz")
		p, err := DecodeJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, q := recode(t, p, EncodeJSON, DecodeJSON); !reflect.DeepEqual(p, q) {
			t.Fatal("JSON round trip changed the program")
		}
		_, b := recode(t, p, EncodeBytecode, DecodeBytecode)
		sameBehaviour(t, p, b)
		for i := range p.Ops {
			if p.Ops[i].Opcode == OpLookup {
				pp, _ := p.LookupPad(i)
				bp, _ := b.LookupPad(i)
				if pp != bp {
					t.Fatalf("op %d: lookup pad %d became %d", i, pp, bp)
				}
			}
		}
	})
}

func TestFileHelpers(t *testing.T) {
	data := readConformance(t, "alir-v2-mixed", "model.json.gz")
	p, err := DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		want Format
	}{
		{"m.json", FormatJSON}, {"m.json.gz", FormatJSON}, {"m.bin", FormatBytecode},
	} {
		path := filepath.Join(dir, c.name)
		if err := WriteFile(path, p, FormatAuto); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(path)
		if gz := isGzip(raw); gz != strings.HasSuffix(c.name, ".gz") {
			t.Errorf("%s: gzip = %v", c.name, gz)
		}
		q, f, err := ReadFile(path, FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		if f != c.want {
			t.Errorf("%s: detected %v, want %v", c.name, f, c.want)
		}
		sameBehaviour(t, p, q)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "missing"), FormatAuto); err == nil {
		t.Error("no error for a missing file")
	}
}

func TestDetect(t *testing.T) {
	b := NewBuilder(DAIS, 2)
	x := b.Input(0, kif(1, 3, 2))
	y := b.Input(1, kif(1, 3, 2))
	b.Output(b.NegQuantize(b.Sub(x, y, 1, kif(1, 6, 2)), kif(1, 6, 2)), 0, false)
	p := mustBuild(t, b)
	for _, bf := range binaryFormats {
		data, err := bf.enc(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, f, err := Decode(data, FormatAuto); err != nil || f != bf.f {
			t.Errorf("%s: detected %v, %v", bf.name, f, err)
		}
	}
	if _, _, err := Decode([]byte("xyz"), FormatAuto); err == nil {
		t.Error("garbage detected as a program")
	}
	if _, _, err := Decode(nil, FormatAuto); err == nil {
		t.Error("empty data detected as a program")
	}
	if _, err := ParseFormat("dais-v1"); err != nil {
		t.Error(err)
	}
	if _, err := ParseFormat("yaml"); err == nil {
		t.Error("ParseFormat accepted yaml")
	}
}

func le32(w ...int32) []byte {
	b := make([]byte, 4*len(w))
	for i, v := range w {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return b
}

// TestBinaryErrors checks that malformed binaries give clear errors.
func TestBinaryErrors(t *testing.T) {
	// One input, one output, ops: input 0; add(0, 0).
	// header, input shift, output (index, shift, neg), two op rows
	good := []int32{2, 0, 1, 1, 2, 0, 0, 1, 0, 0,
		-1, 0, -1, 0, 0, 1, 3, 0,
		0, 0, 0, 1, 0, 1, 4, 0}
	if _, err := DecodeBytecode(le32(good...)); err != nil {
		t.Fatalf("good program rejected: %v", err)
	}
	patch := func(i int, v int32) []byte {
		w := append([]int32(nil), good...)
		w[i] = v
		return le32(w...)
	}
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "truncated"},
		{"odd size", le32(good...)[:10], "multiple of 4"},
		{"header only", le32(good[:6]...), "truncated"},
		{"truncated op", le32(good[:len(good)-1]...), "truncated"},
		{"trailing", le32(append(append([]int32(nil), good...), 0)...), "trailing"},
		{"version", patch(0, 3), "version 3"},
		{"negative count", patch(4, -1), "negative count"},
		{"huge count", patch(4, 1<<30), "truncated"},
		{"future operand", patch(19, 1), "id0 1 does not refer to an earlier operation"},
		{"negative operand", patch(20, -5), "id1 -5"},
		{"input index", patch(11, 4), "input index 4"},
		{"output index", patch(7, 2), "output 0: index 2"},
		{"unused operand", patch(12, 0), "unused id1 must be -1"},
		{"signed flag", patch(15, 2), "signed flag"},
		{"width", patch(16, 70), "exceeds 64 bits"},
		{"opcode", patch(18, 42), "unknown opcode 42"},
		{"neg flag", patch(9, 3), "negation flag"},
		{"shift", patch(21, 1<<20), "shift 1048576 out of range"},
	}
	for _, c := range cases {
		_, err := DecodeBytecode(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	if _, err := DecodeDAIS(le32(good...)); err == nil || !strings.Contains(err.Error(), "version 2, want 1") {
		t.Errorf("DAIS v1 reading ALIR bytecode: %v", err)
	}
	// Lookup table index and table sizes.
	tab := []int32{2, 0, 1, 1, 2, 1, 0, 1, 0, 0,
		-1, 0, -1, 0, 0, 0, 2, 0,
		8, 0, -1, 0, 0, 0, 3, 0,
		4, 1, 2, 3, 4}
	if _, err := DecodeBytecode(le32(tab...)); err != nil {
		t.Fatalf("good lookup program rejected: %v", err)
	}
	bad := append([]int32(nil), tab...)
	bad[21] = 1 // table 1
	if _, err := DecodeBytecode(le32(bad...)); err == nil || !strings.Contains(err.Error(), "lookup table 1 out of range") {
		t.Errorf("table index: %v", err)
	}
	bad = append([]int32(nil), tab...)
	bad[26] = -1
	if _, err := DecodeBytecode(le32(bad...)); err == nil || !strings.Contains(err.Error(), "negative size") {
		t.Errorf("table size: %v", err)
	}
	// The original DAIS has no tables or bit operations.
	orig := []int32{1, 1, 2, 0, 0, 0, 0,
		-1, 0, -1, 0, 0, 1, 3, 0,
		9, 0, -1, 0, 0, 1, 3, 0}
	if _, err := DecodeDAISOriginal(le32(orig...)); err == nil || !strings.Contains(err.Error(), "not part of the original DAIS") {
		t.Errorf("original DAIS with opcode 9: %v", err)
	}
}

func TestJSONErrors(t *testing.T) {
	const op = `[0,-1,-1,0,[-8.0,7.75,0.25],0,0]`
	doc := func(meta, ver, model string) string {
		return `{"model":` + model + `,"meta":` + meta + `,"spec_version":` + ver + `}`
	}
	model := func(ops string) string { return `[[1,1],[0],[0],[0],[false],[` + ops + `],-1,-1]` }
	good := doc(`"ALIRModel"`, "2", model(op))
	if _, err := DecodeJSON([]byte(good)); err != nil {
		t.Fatalf("good document rejected: %v", err)
	}
	cases := []struct{ name, doc, want string }{
		{"not json", `{"model":`, "json"},
		{"trailing", good + `{}`, "trailing data"},
		{"meta", doc(`"Other"`, "2", model(op)), `meta is "Other"`},
		{"no meta", `{"model":[],"spec_version":2}`, `missing "meta"`},
		{"version", doc(`"ALIRModel"`, "5", model(op)), "spec_version 5"},
		{"v2 layout as spec 3", doc(`"ALIRModel"`, "3", model(op)), "7-field spec-2 op record"},
		{"model length", doc(`"ALIRModel"`, "2", `[[1,1],[0]]`), "model has 2 fields"},
		{"shape", doc(`"ALIRModel"`, "2", `[[1],[0],[0],[0],[false],[],-1,-1]`), "model[0]: has 1 elements"},
		{"shifts length", doc(`"ALIRModel"`, "2", `[[2,1],[0],[0],[0],[false],[],-1,-1]`), "model[1]: has 1 elements, want 2"},
		{"negs", doc(`"ALIRModel"`, "2", `[[1,1],[0],[0],[0],["x"],[`+op+`],-1,-1]`), "model[4][0]: want a boolean"},
		{"op arity", doc(`"ALIRModel"`, "2", model(`[0,-1,-1,0]`)), "model[5][0]: has 4 elements, want 7"},
		{"op int", doc(`"ALIRModel"`, "2", model(`[0.5,-1,-1,0,[-8.0,7.75,0.25],0,0]`)), "model[5][0][0]: want a 64-bit integer"},
		{"qint", doc(`"ALIRModel"`, "2", model(`[0,-1,-1,0,[-8.0,7.75,0.3],0,0]`)), "step is not a power of two"},
		{"causality", doc(`"ALIRModel"`, "2", model(op+`,[2,1,0,0,[-8.0,7.75,0.25],0,0]`)), "id0 2 does not refer to an earlier operation"},
		{"table", doc(`"ALIRModel"`, "2", model(op+`,[0,-1,8,0,[0.0,3.0,1.0],0,0]`)), "lookup table 0 out of range"},
		{"table values", doc(`"ALIRModel"`, "2", `[[1,1],[0],[0],[0],[false],[`+op+`],-1,-1,[{"table":[1.5]}]]`), "not a 32-bit integer"},
		{"gzip", "\x1f\x8b\x08\x00garbage", "gzip"},
	}
	for _, c := range cases {
		_, err := DecodeJSON([]byte(c.doc))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
}

func TestConvert(t *testing.T) {
	b := NewBuilder(ALIR, 1)
	x := in8(b, 0)
	n := b.Neg(x, kif(1, 6, 2))
	c := b.ConstAdd(n, 3, 1, kif(1, 7, 2))
	b.Output(c, 0, false)
	p := mustBuild(t, b)
	d, err := Convert(p, DAIS)
	if err != nil {
		t.Fatal(err)
	}
	if d.Ops[1].Opcode != OpNegQuantize || d.Ops[2].Data != 6 {
		t.Errorf("converted ops: %+v", d.Ops)
	}
	sameBehaviour(t, p, d)
	a, err := Convert(d, ALIR)
	if err != nil {
		t.Fatal(err)
	}
	sameBehaviour(t, p, a)
	// An ALIR constant finer than the result's step: DAIS adds it at its
	// step (2^-5), then a quantize floors the sum to 2^-2.
	b2 := NewBuilder(ALIR, 1)
	b2.Output(b2.ConstAdd(in8(b2, 0), -1, 5, kif(1, 7, 2)), 0, false)
	p2, _ := b2.Build()
	d2, err := Convert(p2, DAIS)
	if err != nil {
		t.Fatal(err)
	}
	if len(d2.Ops) != 3 || d2.Ops[1].Opcode != OpConstAdd || d2.Ops[1].Data != -1 || d2.Ops[2].Opcode != OpQuantize || d2.Outputs[0].Index != 2 {
		t.Errorf("converted ops: %+v", d2.Ops)
	}
	sameBehaviour(t, p2, d2)
	// A program that relies on an adder wrapping means something else in
	// DAIS: no conversion.
	b4 := NewBuilder(ALIR, 2)
	b4.Output(b4.Add(in8(b4, 0), in8(b4, 1), 0, kif(1, 5, 2)), 0, false)
	p4, _ := b4.Build()
	if _, err := Convert(p4, DAIS); err == nil || !strings.Contains(err.Error(), "not portable") {
		t.Errorf("converted a program that is not portable: %v", err)
	}
	// relu(-a) has no ALIR form.
	b3 := NewBuilder(DAIS, 1)
	b3.Output(b3.NegReLU(in8(b3, 0), kif(0, 5, 2)), 0, false)
	p3, _ := b3.Build()
	if _, err := EncodeJSON(p3); err == nil || !strings.Contains(err.Error(), "no ALIR equivalent") {
		t.Errorf("EncodeJSON of a DAIS relu(-a): %v", err)
	}
}

// TestToSpec2ZeroTerms: a sum term of width 0 (the constant 0) adds
// nothing, and ToSpec2 writes no op for it: no partial sum of width 0 and
// no op that nothing reads, both of which alkaid's spec 2 interpreter gets
// wrong (the add reading a width-0 partial sum gave 0, generated kernel 146
// of lower/difftest's reference test; a crash on any unread op, kernel 57).
func TestToSpec2ZeroTerms(t *testing.T) {
	b := NewBuilder(ALIR, 2)
	x, y := in8(b, 0), in8(b, 1)
	zero := b.Const(0, QInterval{0, 0, 1})
	s := b.Op(Op{ID0: -1, ID1: -1, Opcode: OpSum, QInt: QInterval{-1020, 1023, 1},
		Terms: []Term{{ID: zero}, {ID: x, Shift: 2, Neg: true}, {ID: y, Shift: 1}}})
	onlyZero := b.Op(Op{ID0: -1, ID1: -1, Opcode: OpSum, QInt: QInterval{0, 0, 1},
		Terms: []Term{{ID: zero}, {ID: zero, Shift: 3}}})
	b.Output(s, 0, false)
	b.Output(onlyZero, 0, false)
	p := mustBuild(t, b)
	q, err := ToSpec2(p)
	if err != nil {
		t.Fatal(err)
	}
	reads := make([]int, len(q.Ops))
	for _, op := range q.Ops {
		op.ForOperands(q.Dialect, func(j int32) { reads[j]++ })
	}
	for _, o := range q.Outputs {
		reads[o.Index]++
	}
	for i, op := range q.Ops {
		w, _ := op.QInt.KIF()
		if op.Opcode == OpAdd || op.Opcode == OpSub {
			if w.Width() == 0 {
				t.Errorf("op %d %+v: a partial sum of width 0", i, op)
			}
		}
		if reads[i] == 0 && op.Opcode != OpInput {
			t.Errorf("op %d %+v: nothing reads it", i, op)
		}
	}
	sameBehaviour(t, p, q)
}

func TestPyFloat(t *testing.T) {
	cases := map[float64]string{
		0: "0.0", -256: "-256.0", 0.0625: "0.0625", 8.658000000000001: "8.658000000000001",
		1e16: "1e+16", 1e15: "1000000000000000.0", 0.0001: "0.0001", 0.00001: "1e-05",
		123.5: "123.5", -1.5e-7: "-1.5e-07", 1.7976931348623157e308: "1.7976931348623157e+308",
	}
	for v, want := range cases {
		if got, _ := pyFloat(v); got != want {
			t.Errorf("pyFloat(%v) = %q, want %q", v, got, want)
		}
	}
}

// alkaid's JSON loader computes widths through float32 (alir_kif.hh): the
// reader follows it and the writer writes intervals both rules agree on.
func TestAlkaidJSONWidths(t *testing.T) {
	for _, c := range []struct {
		q    QInterval
		want KIF // alkaid's reading
	}{
		{QInterval{-3, 3, 1}, KIF{true, 2, 0}},
		{QInterval{-2147483775, 2147483775, 1}, KIF{true, 31, 0}}, // exact: 32 integer bits
		{QInterval{0, 1<<24 + 1, 1}, KIF{false, 25, 0}},           // 2^24 + 2 is exact in float32
		{QInterval{0, 1<<25 + 1, 1}, KIF{false, 25, 0}},           // 2^25 + 2 rounds to 2^25
		{QInterval{-1 << 40, 1<<40 - 1, 1}, KIF{true, 40, 0}},
		{QInterval{0, 7.5, 0.5}, KIF{false, 3, 1}},
	} {
		if got := alkaidKIF(c.q); got != c.want {
			t.Errorf("alkaidKIF(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	b := NewBuilder(ALIR, 1)
	x := b.Input(0, QInterval{-2147483775, 2147483775, 1})
	b.Output(x, 0, false)
	p := mustBuild(t, b)
	data, err := EncodeJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "[-4294967296.0,4294967295.0,1.0]") {
		t.Errorf("the 33-bit interval is not written as its type's range: %s", data)
	}
	q, err := DecodeJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Ops[0].QInt.KIF(); got != (KIF{true, 32, 0}) {
		t.Errorf("read back as %v", got)
	}
	// Read as alkaid reads it, the original interval is 32 bits wide.
	p.Ops[0].QInt = QInterval{-2147483775, 2147483775, 1}
	raw := strings.Replace(string(data), "[-4294967296.0,4294967295.0,1.0]", "[-2147483775.0,2147483775.0,1.0]", 1)
	q, err = DecodeJSON([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := q.Ops[0].QInt.KIF(); got != (KIF{true, 31, 0}) {
		t.Errorf("alkaid's 32-bit reading: got %v", got)
	}
}
