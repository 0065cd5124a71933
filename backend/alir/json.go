package alir

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// SpecVersion is the ALIR spec version this package reads and writes.
const SpecVersion = 2

// MaxInflated bounds the size of a decompressed .json.gz file, so that a
// small file that expands to gigabytes is rejected early (otir-run's
// --max-input-bytes sets it).
var MaxInflated int64 = 256 << 20

// ErrInflateLimit is returned (wrapped) when a gzip stream expands beyond
// MaxInflated.
var ErrInflateLimit = errors.New("decompressed data exceeds the limit")

func isGzip(data []byte) bool { return len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b }

// gunzip returns data decompressed if it starts with the gzip magic bytes,
// else data itself.
func gunzip(data []byte) ([]byte, error) {
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

// DecodeJSON reads an ALIR JSON document of spec version 2, 3 or 4, plain
// or gzip-compressed (detected by its magic bytes), and validates the
// program. Program.Spec tells which version it was. An error about a place
// in the text is a *JSONError, which gives its line and column.
func DecodeJSON(data []byte) (*Program, error) {
	gz := isGzip(data)
	data, err := gunzip(data)
	if err != nil {
		return nil, err
	}
	p, err := decodeJSONText(data)
	if err != nil {
		return nil, locateJSON(data, gz, err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

func decodeJSONText(data []byte) (*Program, error) {
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
	if _, err := dec.Token(); err != io.EOF {
		return nil, &fieldError{offset: nextValue(data, dec.InputOffset()), err: errors.New("json: trailing data after the document")}
	}
	field := func(key string, err error) error { return &fieldError{key: key, offset: -1, err: err} }
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
	p, err := decodeModel(doc.Model, int(doc.SpecVersion[0]-'0'))
	if err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	if err := p.readAlkaidIntervals(); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	return p, nil
}

// jsonPath names a position in the model array for error messages.
type jsonPath string

func (j jsonPath) at(i int) jsonPath { return jsonPath(fmt.Sprintf("%s[%d]", j, i)) }

func (j jsonPath) errorf(format string, args ...any) error {
	return &pathError{path: j, msg: fmt.Sprintf(format, args...)}
}

func unmarshalNumbers(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

func (j jsonPath) array(raw json.RawMessage, n int) ([]json.RawMessage, error) {
	var a []json.RawMessage
	if err := json.Unmarshal(raw, &a); err != nil || a == nil {
		return nil, j.errorf("want an array")
	}
	if n >= 0 && len(a) != n {
		return nil, j.errorf("has %d elements, want %d", len(a), n)
	}
	return a, nil
}

func (j jsonPath) int64(raw json.RawMessage) (int64, error) {
	var n json.Number
	if err := unmarshalNumbers(raw, &n); err != nil {
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

func (j jsonPath) int32(raw json.RawMessage) (int32, error) {
	v, err := j.int64(raw)
	if err != nil {
		return 0, err
	}
	if v != int64(int32(v)) {
		return 0, j.errorf("%d does not fit 32 bits", v)
	}
	return int32(v), nil
}

func (j jsonPath) float(raw json.RawMessage) (float64, error) {
	var n json.Number
	if err := unmarshalNumbers(raw, &n); err != nil {
		return 0, j.errorf("want a number, got %s", abbrev(raw))
	}
	v, err := strconv.ParseFloat(n.String(), 64)
	if err != nil {
		return 0, j.errorf("bad number %s", n)
	}
	return v, nil
}

func (j jsonPath) int32s(raw json.RawMessage, n int) ([]int32, error) {
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

func (j jsonPath) qint(raw json.RawMessage) (QInterval, error) {
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

func abbrev(raw json.RawMessage) string {
	s := string(raw)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// decodeModel reads the model array of a spec 2, 3 or 4 document; only
// the op records differ (decodeOp, decodeOpV4).
func decodeModel(m []json.RawMessage, spec int) (*Program, error) {
	p, err := decodeHeader(m)
	if err != nil {
		return nil, err
	}
	p.Spec = spec
	root := jsonPath("model")
	ops, err := root.at(5).array(m[5], -1)
	if err != nil {
		return nil, err
	}
	p.Ops = make([]Op, len(ops))
	for i, raw := range ops {
		j := root.at(5).at(i)
		if spec >= 3 {
			p.Ops[i], err = decodeOpV4(j, i, raw, spec)
		} else {
			p.Ops[i], err = decodeOp(j, raw)
		}
		if err != nil {
			return nil, err
		}
	}
	return p, decodeTail(p, m)
}

// decodeHeader reads the shape, input shifts and outputs (model[0..4]).
func decodeHeader(m []json.RawMessage) (*Program, error) {
	root := jsonPath("model")
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

// decodeTail reads the cost model sizes and the lookup tables.
func decodeTail(p *Program, m []json.RawMessage) error {
	root := jsonPath("model")
	var err error
	if p.CarrySize, err = root.at(6).int32(m[6]); err != nil {
		return err
	}
	if p.AdderSize, err = root.at(7).int32(m[7]); err != nil {
		return err
	}
	if len(m) == 9 && strings.TrimSpace(string(m[8])) != "null" {
		if p.Tables, err = decodeTables(root.at(8), m[8]); err != nil {
			return err
		}
	}
	return nil
}

func decodeOp(j jsonPath, raw json.RawMessage) (Op, error) {
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

type jsonTable struct {
	Spec *struct {
		Hash    string `json:"hash"`
		OutQInt *struct {
			Min, Max, Step json.Number
		} `json:"out_qint"`
		InpWidth json.Number `json:"inp_width"`
	} `json:"spec"`
	Table []json.Number `json:"table"`
}

func decodeTables(j jsonPath, raw json.RawMessage) ([]Table, error) {
	a, err := j.array(raw, -1)
	if err != nil {
		return nil, err
	}
	tabs := make([]Table, len(a))
	for i, r := range a {
		jt := j.at(i)
		var t jsonTable
		if err := unmarshalNumbers(r, &t); err != nil {
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

// EncodeJSON writes p as an ALIR spec v2 JSON document in the compact style
// of CombLogic.save() (floats as Python's repr). A DAIS program is converted
// first (see Convert), and sums and relative quantize shifts are rewritten
// into spec-2 operations (see ToSpec2).
func EncodeJSON(p *Program) ([]byte, error) {
	p, err := Convert(p, ALIR)
	if err != nil {
		return nil, err
	}
	if p, err = ToSpec2(p); err != nil {
		return nil, err
	}
	inf, err := p.analyze()
	if err != nil {
		return nil, err
	}
	return encodeJSON(p, inf, SpecVersion)
}

// encodeJSON writes the ALIR program p in the JSON layout of spec 2 or 4.
func encodeJSON(p *Program, inf *info, spec int) ([]byte, error) {
	lookupOperand := map[int32]bool{}
	for _, op := range p.Ops {
		if op.Opcode == OpLookup {
			lookupOperand[op.ID0] = true
		}
	}
	// About 60 bytes per op: one allocation for the whole document.
	b := make([]byte, 0, 64*len(p.Ops)+16*len(p.Outputs)+8*len(p.InShifts)+1024)
	ints := func(v []int32) {
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(x), 10)
		}
		b = append(b, ']')
	}
	var ferr error
	float := func(v float64) {
		if fb, ok := appendPyInt(b, v); ok {
			b = fb
			return
		}
		s, err := pyFloat(v)
		if err != nil && ferr == nil {
			ferr = err
		}
		b = append(b, s...)
	}
	b = append(b, `{"model":[[`...)
	b = strconv.AppendInt(b, int64(p.NumInputs()), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.NumOutputs()), 10)
	b = append(b, "],"...)
	ints(p.InShifts)
	idx, shifts := make([]int32, len(p.Outputs)), make([]int32, len(p.Outputs))
	for j, o := range p.Outputs {
		idx[j], shifts[j] = o.Index, o.Shift
	}
	b = append(b, ',')
	ints(idx)
	b = append(b, ',')
	ints(shifts)
	b = append(b, ",["...)
	for j, o := range p.Outputs {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendBool(b, o.Neg)
	}
	b = append(b, "],["...)
	for i, op := range p.Ops {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		if spec >= 3 {
			addr, data := v4Record(op, 0, false)
			b = append(b, '[')
			for k, a := range addr {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendUint(b, uint64(a), 10)
			}
			b = append(b, "],"...)
			b = strconv.AppendInt(b, int64(op.Opcode), 10)
			b = append(b, ",["...)
			for k, d := range data {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, d, 10)
			}
			b = append(b, ']')
		} else {
			b = strconv.AppendInt(b, int64(op.ID0), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(op.ID1), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, int64(op.Opcode), 10)
			b = append(b, ',')
			b = strconv.AppendInt(b, op.Data, 10)
		}
		b = append(b, ",["...)
		q, err := p.writeInterval(i, inf.kif[i], lookupOperand[int32(i)])
		if err != nil {
			return nil, err
		}
		float(q.Min)
		b = append(b, ',')
		float(q.Max)
		b = append(b, ',')
		float(q.Step)
		b = append(b, "],"...)
		float(op.Latency)
		b = append(b, ',')
		float(op.Cost)
		b = append(b, ']')
	}
	b = append(b, "],"...)
	b = strconv.AppendInt(b, int64(p.CarrySize), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p.AdderSize), 10)
	if len(p.Tables) > 0 {
		specs := tableSpecs(p, inf)
		b = append(b, ",["...)
		for i, t := range p.Tables {
			if i > 0 {
				b = append(b, ',')
			}
			s := specs[i]
			b = append(b, `{"spec":{"hash":`...)
			b = strconv.AppendQuote(b, s.Hash)
			b = append(b, `,"out_qint":{"min":`...)
			float(s.OutQInt.Min)
			b = append(b, `,"max":`...)
			float(s.OutQInt.Max)
			b = append(b, `,"step":`...)
			float(s.OutQInt.Step)
			b = append(b, `},"inp_width":`...)
			b = strconv.AppendInt(b, int64(s.InpWidth), 10)
			b = append(b, `},"table":`...)
			ints(t.Values)
			b = append(b, '}')
		}
		b = append(b, ']')
	} else if spec >= 3 {
		b = append(b, ",null"...) // save() always writes the tables
	}
	b = append(b, `],"meta":"ALIRModel","spec_version":`...)
	b = strconv.AppendInt(b, int64(spec), 10)
	b = append(b, '}')
	if ferr != nil {
		return nil, ferr
	}
	return b, nil
}

// tableSpecs returns each table's JSON spec record, filling what a binary
// file did not store: the hash (SHA-256 of the little-endian int32 values),
// the result interval and the input width of the first lookup reading it.
func tableSpecs(p *Program, inf *info) []Table {
	specs := make([]Table, len(p.Tables))
	for i, t := range p.Tables {
		specs[i] = t
		if t.Hash == "" {
			h := sha256.New()
			_ = binary.Write(h, binary.LittleEndian, t.Values)
			specs[i].Hash = hex.EncodeToString(h.Sum(nil))
		}
	}
	seen := make([]bool, len(p.Tables))
	for _, op := range p.Ops {
		if op.Opcode != OpLookup || seen[op.Data] {
			continue
		}
		seen[op.Data] = true
		s := &specs[op.Data]
		if s.OutQInt == (QInterval{}) {
			s.OutQInt = op.QInt
		}
		if s.InpWidth == 0 {
			s.InpWidth = inf.kif[op.ID0].Width()
		}
	}
	for i := range specs {
		if specs[i].OutQInt == (QInterval{}) {
			specs[i].OutQInt = QInterval{0, 0, 1}
		}
	}
	return specs
}

// pyFloat formats v as Python's repr(float) does: the shortest digits that
// read back exactly, a ".0" on integral values, exponent form below 1e-4
// and from 1e16 on.
// appendPyInt appends an integral v below 10^16 in magnitude as Python's
// repr writes it ("12.0", "-3.0", "-0.0"), without allocating; it reports
// false for any other v, which pyFloat writes.
func appendPyInt(b []byte, v float64) ([]byte, bool) {
	if v != math.Trunc(v) || v <= -1e16 || v >= 1e16 {
		return b, false
	}
	if v == 0 && math.Signbit(v) {
		return append(b, "-0.0"...), true
	}
	b = strconv.AppendInt(b, int64(v), 10)
	return append(b, ".0"...), true
}

func pyFloat(v float64) (string, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "", fmt.Errorf("json: cannot write non-finite number %v", v)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64) // [-]d[.ddd]e±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	e := strings.IndexByte(s, 'e')
	digits := strings.Replace(s[:e], ".", "", 1)
	exp, _ := strconv.Atoi(s[e+1:])
	switch {
	case exp < -4 || exp >= 16:
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		es := "+"
		if exp < 0 {
			es, exp = "-", -exp
		}
		return fmt.Sprintf("%s%se%s%02d", sign, m, es, exp), nil
	case exp < 0:
		return sign + "0." + strings.Repeat("0", -exp-1) + digits, nil
	case len(digits) <= exp+1:
		return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0", nil
	default:
		return sign + digits[:exp+1] + "." + digits[exp+1:], nil
	}
}
