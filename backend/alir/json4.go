package alir

import (
	"encoding/json"
	"io"
	"strconv"
)

// strictInt64 reads a JSON integer within int64 (alkaid's v4 loader rejects
// non-integers and values above 2^63-1).
func (j jsonPath) strictInt64(raw json.RawMessage) (int64, error) {
	n, ok := numberText(raw)
	if !ok {
		return 0, j.errorf("want an integer, got %s", abbrev(raw))
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		return 0, j.errorf("want an integer within int64, got %s", n)
	}
	return v, nil
}

func (j jsonPath) int64s(raw json.RawMessage) ([]int64, error) {
	a, err := j.array(raw, -1)
	if err != nil {
		return nil, err
	}
	if len(a) > maxV4List {
		return nil, j.errorf("has %d entries, at most %d", len(a), maxV4List)
	}
	out := make([]int64, len(a))
	for k, e := range a {
		if out[k], err = j.at(k).strictInt64(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decodeOpV4 reads op record i of a spec 3 or 4 document: [addr[], opcode,
// data[], qint, latency, cost].
func decodeOpV4(j jsonPath, i int, raw json.RawMessage, spec int) (Op, error) {
	f, err := j.array(raw, -1)
	if err != nil {
		return Op{}, err
	}
	if len(f) == 7 && spec == 3 {
		return Op{}, j.errorf("a 7-field spec-2 op record in a spec-3 file (alkaid db81eac wrote these; no alkaid reads them): convert it as spec 2")
	}
	if len(f) != 6 {
		return Op{}, j.errorf("has %d elements, want 6 ([addr, opcode, data, qint, latency, cost])", len(f))
	}
	addr, err := j.at(0).int64s(f[0])
	if err != nil {
		return Op{}, err
	}
	code, err := j.at(1).strictInt64(f[1])
	if err != nil {
		return Op{}, err
	}
	data, err := j.at(2).int64s(f[2])
	if err != nil {
		return Op{}, err
	}
	op, _, _, err := opFromV4(i, code, addr, data, spec, false)
	if err != nil {
		return Op{}, j.errorf("%v", err)
	}
	if op.QInt, err = j.at(3).qint(f[3]); err != nil {
		return Op{}, err
	}
	if op.Latency, err = j.at(4).float(f[4]); err != nil {
		return Op{}, err
	}
	if op.Cost, err = j.at(5).float(f[5]); err != nil {
		return Op{}, err
	}
	return op, nil
}

// EncodeJSONV4 writes p as an ALIR spec 4 JSON document, as alkaid's
// CombLogic.save() does: compact, op records [addr, opcode, data, qint,
// latency, cost], and the lookup tables always (null when there are
// none). A DAIS program is converted first (see Convert).
func EncodeJSONV4(p *Program) ([]byte, error) { return encodeBytes(p, WriteJSONV4) }

// WriteJSONV4 is EncodeJSONV4 writing to w as it goes (see WriteJSON).
func WriteJSONV4(w io.Writer, p *Program) error {
	p, inf, err := forV4(p)
	if err != nil {
		return err
	}
	return writeJSON(w, p, inf, SpecVersionV4)
}
