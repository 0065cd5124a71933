package alir

// The ALIR JSON decoder as it was before it streamed (issue 26), kept as
// the reference that TestJSONStreamEquivalent and FuzzJSONStreamEquivalent
// hold the streaming decoder to: the same program from every document, and
// an error for the same documents.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// oldFieldError is the old decoder's error about a top-level field (key)
// or at a known offset.
type oldFieldError struct {
	key    string
	offset int64
	err    error
}

func (e *oldFieldError) Error() string { return e.err.Error() }
func (e *oldFieldError) Unwrap() error { return e.err }

// oldPath is the old decoder's jsonPath, with its own number readers.
type oldPath string

func (j oldPath) at(i int) oldPath { return oldPath(fmt.Sprintf("%s[%d]", j, i)) }

func (j oldPath) errorf(format string, args ...any) error {
	return &pathError{path: jsonPath(j), msg: fmt.Sprintf(format, args...)}
}

func oldGunzip(data []byte) ([]byte, error) {
	if !isGzip(data) {
		return data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	out, err := io.ReadAll(io.LimitReader(zr, MaxInflated+1))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	if int64(len(out)) > MaxInflated {
		return nil, fmt.Errorf("gzip: %w of %d bytes", ErrInflateLimit, MaxInflated)
	}
	return out, nil
}

func oldDecodeJSON(data []byte) (*Program, error) {
	gz := isGzip(data)
	data, err := oldGunzip(data)
	if err != nil {
		return nil, err
	}
	p, err := oldDecodeJSONText(data)
	if err != nil {
		return nil, oldLocateJSON(data, gz, err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func oldDecodeJSONText(data []byte) (*Program, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc struct {
		Meta        *string           `json:"meta"`
		SpecVersion json.RawMessage   `json:"spec_version"`
		Model       []json.RawMessage `json:"model"`
	}
	if err := dec.Decode(&doc); err != nil {
		if strings.HasPrefix(err.Error(), "json: ") { // encoding/json's type errors
			return nil, err
		}
		return nil, fmt.Errorf("json: %w", err)
	}
	// The offset before the token: after a delimiter ('[', '{'), Token's
	// offset is past it, and the old reader placed the error one byte late
	// (found by FuzzJSONStreamEquivalent; the streaming reader is right).
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return nil, &oldFieldError{offset: oldNextValue(data, end), err: errors.New("json: trailing data after the document")}
	}
	field := func(key string, err error) error { return &oldFieldError{key: key, offset: -1, err: err} }
	switch {
	case doc.Meta == nil:
		return nil, errors.New(`json: missing "meta"`)
	case *doc.Meta != "ALIRModel":
		return nil, field("meta", fmt.Errorf(`json: meta is %q, want "ALIRModel"`, *doc.Meta))
	case doc.SpecVersion == nil || string(doc.SpecVersion) == "null":
		return nil, errors.New(`json: missing "spec_version"`)
	case string(doc.SpecVersion) != "2" && string(doc.SpecVersion) != "3" && string(doc.SpecVersion) != "4":
		return nil, field("spec_version", fmt.Errorf("json: spec_version %s is not supported (want the number 2, 3 or 4)", doc.SpecVersion))
	case doc.Model == nil:
		return nil, errors.New(`json: missing "model"`)
	case len(doc.Model) != 8 && len(doc.Model) != 9:
		return nil, field("model", fmt.Errorf("json: model has %d fields, want 8 or 9", len(doc.Model)))
	}
	p, err := oldDecodeModel(doc.Model, int(doc.SpecVersion[0]-'0'))
	if err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	if err := p.readAlkaidIntervals(); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	return p, nil
}

func oldUnmarshalNumbers(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

func (j oldPath) array(raw json.RawMessage, n int) ([]json.RawMessage, error) {
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil || a == nil {
		return nil, j.errorf("want an array")
	}
	if n >= 0 && len(a) != n {
		return nil, j.errorf("has %d elements, want %d", len(a), n)
	}
	return a, nil
}

func (j oldPath) int64(raw json.RawMessage) (int64, error) {
	var n json.Number
	if err := oldUnmarshalNumbers(raw, &n); err != nil {
		return 0, j.errorf("want an integer, got %s", abbrev(raw))
	}
	v, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		// Opcode 5 may hold a 64-bit pattern written as an unsigned number.
		u, uerr := strconv.ParseUint(n.String(), 10, 64)
		if uerr != nil {
			return 0, j.errorf("want a 64-bit integer, got %s", n)
		}
		v = int64(u)
	}
	return v, nil
}

func (j oldPath) int32(raw json.RawMessage) (int32, error) {
	v, err := j.int64(raw)
	if err != nil {
		return 0, err
	}
	if v != int64(int32(v)) {
		return 0, j.errorf("%d does not fit 32 bits", v)
	}
	return int32(v), nil
}

func (j oldPath) float(raw json.RawMessage) (float64, error) {
	var n json.Number
	if err := oldUnmarshalNumbers(raw, &n); err != nil {
		return 0, j.errorf("want a number, got %s", abbrev(raw))
	}
	v, err := strconv.ParseFloat(n.String(), 64)
	if err != nil {
		return 0, j.errorf("bad number %s", n)
	}
	return v, nil
}

func (j oldPath) int32s(raw json.RawMessage, n int) ([]int32, error) {
	a, err := j.array(raw, n)
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(a))
	for i, e := range a {
		if out[i], err = j.at(i).int32(e); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (j oldPath) qint(raw json.RawMessage) (QInterval, error) {
	a, err := j.array(raw, 3)
	if err != nil {
		return QInterval{}, err
	}
	var v [3]float64
	for i := range v {
		if v[i], err = j.at(i).float(a[i]); err != nil {
			return QInterval{}, err
		}
	}
	return QInterval{v[0], v[1], v[2]}, nil
}

func oldDecodeModel(m []json.RawMessage, spec int) (*Program, error) {
	p, err := oldDecodeHeader(m)
	if err != nil {
		return nil, err
	}
	p.Spec = spec
	root := oldPath("model")
	ops, err := root.at(5).array(m[5], -1)
	if err != nil {
		return nil, err
	}
	p.Ops = make([]Op, len(ops))
	for i, raw := range ops {
		j := root.at(5).at(i)
		if spec >= 3 {
			p.Ops[i], err = oldDecodeOpV4(j, i, raw, spec)
		} else {
			p.Ops[i], err = oldDecodeOp(j, raw)
		}
		if err != nil {
			return nil, err
		}
	}
	return p, oldDecodeTail(p, m)
}

func oldDecodeHeader(m []json.RawMessage) (*Program, error) {
	root := oldPath("model")
	shape, err := root.at(0).int32s(m[0], 2)
	if err != nil {
		return nil, err
	}
	if shape[0] < 0 || shape[1] < 0 {
		return nil, root.at(0).errorf("negative shape %v", shape)
	}
	p := &Program{Dialect: ALIR}
	nIn, nOut := int(shape[0]), int(shape[1])
	if p.InShifts, err = root.at(1).int32s(m[1], nIn); err != nil {
		return nil, err
	}
	idx, err := root.at(2).int32s(m[2], nOut)
	if err != nil {
		return nil, err
	}
	shifts, err := root.at(3).int32s(m[3], nOut)
	if err != nil {
		return nil, err
	}
	negs, err := root.at(4).array(m[4], nOut)
	if err != nil {
		return nil, err
	}
	p.Outputs = make([]Output, nOut)
	for j := range p.Outputs {
		p.Outputs[j] = Output{Index: idx[j], Shift: shifts[j]}
		switch strings.TrimSpace(string(negs[j])) {
		case "true", "1":
			p.Outputs[j].Neg = true
		case "false", "0":
		default:
			return nil, root.at(4).at(j).errorf("want a boolean, got %s", abbrev(negs[j]))
		}
	}
	return p, nil
}

func oldDecodeTail(p *Program, m []json.RawMessage) error {
	root := oldPath("model")
	var err error
	if p.CarrySize, err = root.at(6).int32(m[6]); err != nil {
		return err
	}
	if p.AdderSize, err = root.at(7).int32(m[7]); err != nil {
		return err
	}
	if len(m) == 9 && strings.TrimSpace(string(m[8])) != "null" {
		if p.Tables, err = oldDecodeTables(root.at(8), m[8]); err != nil {
			return err
		}
	}
	return nil
}

func oldDecodeOp(j oldPath, raw json.RawMessage) (Op, error) {
	var op Op
	f, err := j.array(raw, 7)
	if err != nil {
		return op, err
	}
	if op.ID0, err = j.at(0).int32(f[0]); err != nil {
		return op, err
	}
	if op.ID1, err = j.at(1).int32(f[1]); err != nil {
		return op, err
	}
	code, err := j.at(2).int32(f[2])
	if err != nil {
		return op, err
	}
	op.Opcode = Opcode(code)
	if op.Data, err = j.at(3).int64(f[3]); err != nil {
		return op, err
	}
	// The table index of a lookup is data_low (data_high is the bytecode's
	// pad slot); shifts and bit operations use only data_low as well.
	op = canonicalData(op)
	if op.QInt, err = j.at(4).qint(f[4]); err != nil {
		return op, err
	}
	if op.Latency, err = j.at(5).float(f[5]); err != nil {
		return op, err
	}
	if op.Cost, err = j.at(6).float(f[6]); err != nil {
		return op, err
	}
	return op, nil
}

func oldDecodeTables(j oldPath, raw json.RawMessage) ([]Table, error) {
	a, err := j.array(raw, -1)
	if err != nil {
		return nil, err
	}
	tabs := make([]Table, len(a))
	for i, r := range a {
		jt := j.at(i)
		var t jsonTable
		if err := oldUnmarshalNumbers(r, &t); err != nil {
			return nil, jt.errorf("bad lookup table: %v", err)
		}
		if t.Table == nil {
			return nil, jt.errorf(`missing "table"`)
		}
		tab := Table{Values: make([]int32, len(t.Table))}
		for k, n := range t.Table {
			v, err := strconv.ParseInt(n.String(), 10, 32)
			if err != nil {
				return nil, jt.errorf("table[%d]: %s is not a 32-bit integer", k, n)
			}
			tab.Values[k] = int32(v)
		}
		if s := t.Spec; s != nil {
			tab.Hash = s.Hash
			if s.InpWidth != "" {
				w, err := strconv.Atoi(s.InpWidth.String())
				if err != nil {
					return nil, jt.errorf("spec.inp_width: %s is not an integer", s.InpWidth)
				}
				tab.InpWidth = w
			}
			if q := s.OutQInt; q != nil {
				var v [3]float64
				for k, n := range [3]json.Number{q.Min, q.Max, q.Step} {
					if v[k], err = strconv.ParseFloat(n.String(), 64); err != nil {
						return nil, jt.errorf("spec.out_qint: bad number %q", n)
					}
				}
				tab.OutQInt = QInterval{v[0], v[1], v[2]}
			}
		}
		tabs[i] = tab
	}
	return tabs, nil
}

func (j oldPath) strictInt64(raw json.RawMessage) (int64, error) {
	var n json.Number
	if err := oldUnmarshalNumbers(raw, &n); err != nil {
		return 0, j.errorf("want an integer, got %s", abbrev(raw))
	}
	v, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		return 0, j.errorf("want an integer within int64, got %s", n)
	}
	return v, nil
}

func (j oldPath) int64s(raw json.RawMessage) ([]int64, error) {
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

func oldDecodeOpV4(j oldPath, i int, raw json.RawMessage, spec int) (Op, error) {
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

func oldLocateJSON(data []byte, gz bool, err error) error {
	if err == nil {
		return nil
	}
	off := int64(-1)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var pe *pathError
	var fe *oldFieldError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		off = max(se.Offset-1, 0)
	case errors.As(err, &te):
		// The key's value that holds te.Offset (the end of the literal
		// that did not fit): with a key given twice, not the last one
		// (found by FuzzJSONStreamEquivalent; the streaming reader is right).
		off = oldValueOffsetAt(data, te.Field, te.Offset-1)
	case errors.As(err, &pe):
		if key, idx, ok := parsePath(pe.path); ok {
			off = oldValueOffset(data, key, idx)
		}
	case errors.As(err, &fe):
		off = fe.offset
		if off < 0 {
			off = oldValueOffset(data, fe.key, nil)
		}
	}
	if off < 0 || off > int64(len(data)) {
		return err
	}
	je := &JSONError{Offset: off, Err: err}
	if !gz {
		je.Line, je.Col = lineCol(data, off)
	}
	return je
}

func oldValueOffset(data []byte, key string, idx []int) int64 {
	return oldValueOffsetAt(data, key, -1, idx...)
}

// oldValueOffsetAt is the start of key's value: the last one, or with
// at >= 0 the one whose bytes hold offset at.
func oldValueOffsetAt(data []byte, key string, at int64, idx ...int) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return -1
	}
	found := int64(-1)
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return -1
		}
		start := oldNextValue(data, dec.InputOffset())
		skipErr := oldSkipValue(dec)
		if k == key && (at < 0 || start <= at && at < dec.InputOffset()) {
			found = start
		}
		if skipErr != nil {
			break
		}
	}
	if found < 0 {
		return -1
	}
	off := found
	for _, n := range idx {
		dec = json.NewDecoder(bytes.NewReader(data[off:]))
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			return -1
		}
		for i := 0; ; i++ {
			if !dec.More() {
				return -1
			}
			if i == n {
				off += oldNextValue(data[off:], dec.InputOffset())
				break
			}
			if oldSkipValue(dec) != nil {
				return -1
			}
		}
	}
	return off
}

func oldNextValue(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':', ',':
			off++
			continue
		}
		break
	}
	return off
}

func oldSkipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
