package alir

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// A small spec-4 program: input 0; sum(+x0, -x0*2) ; quantize(sum*2^-1).
const v4Good = `{"model":[[1,1],[0],[2],[0],[false],[` +
	`[[],-1,[0],[-8.0,7.0,1.0],0,0],` +
	`[[0,0],11,[1,0,0,1],[-16.0,14.0,1.0],0,0],` +
	`[[1],3,[-1],[-8.0,7.0,1.0],0,0]` +
	`],-1,-1,null],"meta":"ALIRModel","spec_version":4}`

func TestJSONV4Errors(t *testing.T) {
	p, err := DecodeJSON([]byte(v4Good))
	if err != nil {
		t.Fatalf("good document rejected: %v", err)
	}
	if p.Spec != 4 || p.Ops[1].Opcode != OpSum || len(p.Ops[1].Terms) != 2 || !p.Ops[1].Terms[1].Neg || p.Ops[1].Terms[1].Shift != 1 || p.Ops[2].Data != -1 {
		t.Fatalf("read %+v", p)
	}
	// -x0 = sum of x0 - 2x0; the quantize halves it.
	out, err := RunExact(p, []float64{3, -4}, 2)
	if err != nil || out[0] != -2 || out[1] != 2 {
		t.Fatalf("outputs %v, %v", out, err)
	}
	op := func(i int, rec string) string {
		ops := []string{`[[],-1,[0],[-8.0,7.0,1.0],0,0]`, `[[0,0],11,[1,0,0,1],[-16.0,14.0,1.0],0,0]`, `[[1],3,[-1],[-8.0,7.0,1.0],0,0]`}
		ops[i] = rec
		return strings.Replace(v4Good, `[[],-1,[0],[-8.0,7.0,1.0],0,0],[[0,0],11,[1,0,0,1],[-16.0,14.0,1.0],0,0],[[1],3,[-1],[-8.0,7.0,1.0],0,0]`, strings.Join(ops, ","), 1)
	}
	cases := []struct{ name, doc, want string }{
		{"spec 3 needs no relative shift", strings.Replace(op(2, `[[1],3,[],[-8.0,7.0,1.0],0,0]`), `"spec_version":4`, `"spec_version":3`, 1), ""},
		{"record length", op(0, `[[],-1,[0],[-8.0,7.0,1.0],0]`), "model[5][0]: has 5 elements, want 6"},
		{"addr not array", op(1, `[0,11,[1,0,0,1],[-16.0,14.0,1.0],0,0]`), "model[5][1][0]: want an array"},
		{"data not integer", op(1, `[[0,0],11,[1,0,0.5,1],[-16.0,14.0,1.0],0,0]`), "model[5][1][2][2]: want an integer"},
		{"data beyond int64", op(0, `[[],5,[9223372036854775808],[-8.0,7.0,1.0],0,0]`), "within int64"},
		{"addr beyond u32", op(1, `[[0,4294967296],11,[1,0,0,1],[-16.0,14.0,1.0],0,0]`), "outside the u32 range"},
		{"causality", op(1, `[[0,1],11,[1,0,0,1],[-16.0,14.0,1.0],0,0]`), "op 1 (sum): address 1 (1) does not refer to an earlier operation"},
		{"causality of an ignored addr", op(2, `[[1,2],3,[-1],[-8.0,7.0,1.0],0,0]`), "address 1 (2) does not refer"},
		{"unknown opcode", op(2, `[[1],12,[],[-8.0,7.0,1.0],0,0]`), "unknown opcode 12"},
		{"DAIS opcode", op(2, `[[1],-3,[],[-8.0,7.0,1.0],0,0]`), "unknown opcode -3"},
		{"missing addr", op(2, `[[],3,[-1],[-8.0,7.0,1.0],0,0]`), "op 2 (quantize): needs 1 addresses, has 0"},
		{"missing relative shift", op(2, `[[1],3,[],[-8.0,7.0,1.0],0,0]`), "op 2 (quantize): needs 1 data entries, has 0"},
		{"missing sum data", op(1, `[[0,0],11,[1,0,0],[-16.0,14.0,1.0],0,0]`), "needs 4 data entries, has 3"},
		{"one-term sum", op(1, `[[0],11,[1,0],[-16.0,14.0,1.0],0,0]`), "at least two terms"},
		{"shift beyond int32", op(1, `[[0,0],11,[1,0,0,4294967296],[-16.0,14.0,1.0],0,0]`), "term 1 shift 4294967296 does not fit 32 bits"},
		{"shift range", op(1, `[[0,0],11,[1,0,0,5000],[-16.0,14.0,1.0],0,0]`), "term 1 shift 5000 out of range"},
		{"relative shift range", op(2, `[[1],3,[5000],[-8.0,7.0,1.0],0,0]`), "relative shift 5000 out of range"},
		{"input index", op(0, `[[],-1,[1],[-8.0,7.0,1.0],0,0]`), "input index 1 out of range"},
		{"bit op", op(2, `[[1,0],10,[0,3],[-8.0,7.0,1.0],0,0]`), "unknown bit operation 3"},
		{"lookup table", op(2, `[[1],8,[0],[-8.0,7.0,1.0],0,0]`), "lookup table 0 out of range"},
		{"wide constant", op(2, `[[1],4,[4294967297,0],[-8.0,7.0,1.0],0,0]`), "constants wider than 32 bits are not supported"},
		{"width", op(0, `[[],-1,[0],[-1e30,1e30,1.0],0,0]`), "64 bits"},
		{"output index", strings.Replace(v4Good, `[[1,1],[0],[2]`, `[[1,1],[0],[3]`, 1), "output 0: index 3"},
	}
	for _, c := range cases {
		_, err := DecodeJSON([]byte(c.doc))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// A wide constant with trailing zero bits is the same value at a
	// coarser exponent.
	q, err := DecodeJSON([]byte(op(2, `[[1],4,[8589934592,33],[-8.0,7.0,1.0],0,0]`)))
	if err != nil || q.Ops[2].DataLow() != 1<<30 || q.Ops[2].DataHigh() != 30 {
		t.Errorf("wide constant 2^33*2^-33: %v %+v", err, q)
	}
}

func TestBytecodeV4Errors(t *testing.T) {
	p, err := DecodeJSON([]byte(v4Good))
	if err != nil {
		t.Fatal(err)
	}
	good, err := EncodeBytecodeV4(p)
	if err != nil {
		t.Fatal(err)
	}
	if q, err := DecodeBytecodeV4(good); err != nil || len(q.Ops) != 3 {
		t.Fatalf("good bytecode: %v", err)
	}
	// Layout: header 24, inp_shifts 4, out_idxs 4, out_shifts 4, negs 1
	// (= 37); op 0 at 37 (8 + 8), op 1 at 53 (8 + 8 + 32), op 2 at 101.
	patch := func(at int, b ...byte) []byte {
		d := append([]byte(nil), good...)
		copy(d[at:], b)
		return d
	}
	u32 := func(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"magic", patch(0, 'X'), "not a program in any known format"},
		{"version", patch(4, 5), "version 5, want 4"},
		{"truncated header", good[:20], "truncated"},
		{"truncated op", good[:len(good)-3], "truncated"},
		{"trailing", append(append([]byte(nil), good...), 0), "1 trailing bytes"},
		{"huge op count", patch(16, u32(1<<31)...), "truncated: 2147483648 ops"},
		{"huge table count", patch(20, u32(1<<30)...), "truncated"},
		{"neg flag", patch(36, 2), "negation flag 2"},
		{"signed flag", patch(38, 7), "signed flag 7"},
		{"opcode", patch(37, 12), "unknown opcode 12"},
		{"width", patch(39, 100), "64 bits"},
		{"causality", patch(61, 1), "address 0 (1) does not refer to an earlier operation"},
		{"output index", patch(28, 9), "output 0: index 9"},
	}
	for _, c := range cases {
		_, _, err := Decode(c.data, FormatAuto)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	// Spec 3 bytecode: a quantize without a relative shift.
	spec3 := patch(4, 3)
	spec3 = append(spec3[:101+8+4], spec3[101+8+4+8:]...) // drop op 2's data
	spec3[101+6] = 0                                      // n_data = 0
	q, f, err := Decode(spec3, FormatAuto)
	if err != nil || f != FormatBytecodeV4 || q.Spec != 3 || q.Ops[2].Data != 0 {
		t.Errorf("spec 3 bytecode: %v %v %+v", err, f, q)
	}
	// A lookup's pad is stored in the bytecode and derived in JSON.
	b := NewBuilder(ALIR, 1)
	x := b.Input(0, QInterval{-2, 1, 1})
	tab := b.AddTable(Table{Values: []int32{10, 20, 30, 40}})
	b.Output(b.Lookup(x, tab, QInterval{10, 40, 1}), 0, false)
	lp := mustBuild(t, b)
	bc, err := EncodeBytecodeV4(lp)
	if err != nil {
		t.Fatal(err)
	}
	// op 1 record: head, addr, T, pad
	if !bytes.Contains(bc, append(append([]byte{8, 0, 6, 0, 1, 0, 2, 0}, u32(0)...), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) {
		t.Errorf("lookup record not found in % x", bc)
	}
}
