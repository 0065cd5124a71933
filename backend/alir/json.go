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

// MaxOps bounds the operations of a program DecodeJSON reads (otir-run's
// --max-ops sets it): 2^21, twice the most lower-tiles makes by default.
// The count is checked while the document is scanned, before any op is
// decoded.
var MaxOps = 1 << 21

// ErrOpLimit is returned (wrapped) when a document holds more than MaxOps
// operations.
var ErrOpLimit = errors.New("holds more operations than the limit")

// DecodeJSON reads an ALIR JSON document of spec version 2, 3 or 4, plain
// or gzip-compressed (detected by its magic bytes), and validates the
// program. Program.Spec tells which version it was. An error about a place
// in the text is a *JSONError, which gives its line and column.
//
// The text is read in two passes, each streaming (a compressed document is
// inflated twice, never held whole; at most MaxInflated bytes): the first
// checks the syntax and finds the top-level fields and the number of ops,
// the second decodes the model, one op record at a time (jsonscan.go).
func DecodeJSON(data []byte) (*Program, error) {
	src := jsonSource{data: data, gz: isGzip(data)}
	doc, err := src.scanDocument()
	var p *Program
	if err == nil {
		p, err = src.decodeModel(doc)
	}
	if err != nil {
		return nil, src.locate(err)
	}
	if err := p.readAlkaidIntervals(); err != nil {
		return nil, fmt.Errorf("json: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// jsonSource is an ALIR JSON document as read from a file: its text, or
// the gzip stream of its text.
type jsonSource struct {
	data []byte
	gz   bool
}

// scanner starts a pass over the text.
func (src jsonSource) scanner() (*jsonScanner, error) {
	if !src.gz {
		return newJSONScanner(src.data), nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(src.data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return newJSONStreamScanner(&inflater{r: io.LimitReader(zr, MaxInflated+1), max: MaxInflated}), nil
}

// inflater reads a gzip stream of at most max bytes.
type inflater struct {
	r      io.Reader
	n, max int64
}

func (z *inflater) Read(b []byte) (int, error) {
	n, err := z.r.Read(b)
	if z.n += int64(n); z.n > z.max {
		return 0, fmt.Errorf("gzip: %w of %d bytes", ErrInflateLimit, z.max)
	}
	if err != nil && err != io.EOF {
		err = fmt.Errorf("gzip: %w", err)
	}
	return n, err
}

// locate wraps err in a JSONError with its place in the text, when it has
// one (a syntax error, or a fieldError with an offset). A compressed text's
// place has no line and column.
func (src jsonSource) locate(err error) error {
	off := int64(-1)
	var se *syntaxError
	var fe *fieldError
	switch {
	case errors.As(err, &se):
		off = se.off
	case errors.As(err, &fe):
		off = fe.offset
	}
	if off < 0 {
		return err
	}
	je := &JSONError{Offset: off, Err: err}
	if !src.gz && off <= int64(len(src.data)) {
		je.Line, je.Col = lineCol(src.data, off)
	}
	return je
}

// jsonDoc is what the first pass finds: the top-level fields (the last of
// repeated keys, as encoding/json takes it; keys match without regard to
// case, as there too).
type jsonDoc struct {
	meta, spec       []byte // raw values; nil when absent or null
	metaOff, specOff int64
	model            int64 // offset of the model array; -1 when absent or null
	fields           int   // the model's elements
	ops              int   // the elements of model[5], when an array
	spec0            int   // the spec version, once checked
}

// scanDocument is the first pass: the whole text's syntax, its fields,
// and the checks of the old decoder's document struct, in its order
// (reading, that is inflating, then syntax, then types, then trailing
// data, then the fields' values).
func (src jsonSource) scanDocument() (*jsonDoc, error) {
	s, err := src.scanner()
	if err != nil {
		return nil, err
	}
	d, err := s.scanDocument()
	if err != nil {
		// An error of the stream (a corrupt or too large gzip stream)
		// comes first, wherever it is.
		if rerr := s.drain(); rerr != nil {
			return nil, rerr
		}
	}
	return d, err
}

// drain reads the rest of the stream and returns its read error, if any
// (or the read error or limit that stopped the scan).
func (s *jsonScanner) drain() error {
	kept := s.err
	if _, syntax := kept.(*syntaxError); kept != nil && !syntax && kept != errUnexpectedEOF {
		return kept
	}
	s.err, s.recAt = nil, -1
	for s.fill() {
		s.pos = len(s.buf)
	}
	rerr := s.err
	s.err = kept
	return rerr
}

func (s *jsonScanner) scanDocument() (*jsonDoc, error) {
	d := &jsonDoc{model: -1}
	var typeErr error
	typeErrAt := func(off int64, format string, args ...any) {
		if typeErr == nil {
			typeErr = &fieldError{offset: off, err: fmt.Errorf(format, args...)}
		}
	}
	c, ok := s.next()
	switch {
	case !ok && s.err == errUnexpectedEOF:
		return nil, fmt.Errorf("json: %w", io.EOF)
	case !ok:
		return nil, s.err
	case c != '{':
		off := s.offset()
		if !s.value(0) {
			return nil, s.err
		}
		if c != 'n' { // null leaves every field absent
			typeErrAt(off, "json: cannot unmarshal %s into the ALIR document (an object)", jsonKind(c))
		}
	default:
		ok = s.fields(func(name string) bool {
			c, ok := s.next()
			if !ok {
				return false
			}
			switch {
			case strings.EqualFold(name, "meta"), strings.EqualFold(name, "spec_version"):
				raw, off, ok := s.rawValue()
				if !ok {
					return false
				}
				if string(raw) == "null" {
					raw = nil
				}
				if strings.EqualFold(name, "spec_version") {
					d.spec, d.specOff = bytes.Clone(raw), off
					return true
				}
				if c != '"' && c != 'n' {
					typeErrAt(off, "json: cannot unmarshal %s into Go struct field .meta of type string", jsonKind(c))
				}
				d.meta, d.metaOff = bytes.Clone(raw), off
				return true
			case strings.EqualFold(name, "model"):
				d.model = -1
				if c != '[' {
					off := s.offset()
					if c != 'n' {
						typeErrAt(off, "json: cannot unmarshal %s into Go struct field .model of type []json.RawMessage", jsonKind(c))
					}
					return s.value(0)
				}
				d.model = s.offset()
				return s.scanModel(d)
			}
			return s.value(0)
		}, 0)
		if !ok {
			return nil, s.err
		}
	}
	if typeErr != nil {
		return nil, typeErr
	}
	s.ws()
	if _, more := s.peek(); more {
		// Placed at the first byte that is not white space, ',' or ':'.
		for c, ok := s.peek(); ok && strings.IndexByte(" \t\r\n,:", c) >= 0; c, ok = s.peek() {
			s.pos++
		}
		return nil, &fieldError{offset: s.offset(), err: errors.New("json: trailing data after the document")}
	}
	if s.err != nil {
		return nil, s.err
	}
	return d, d.check()
}

// keyName is the text of a recorded key (its string and colon).
func keyName(raw []byte) string {
	raw = bytes.TrimRight(raw, " \t\r\n:")
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var name string
	_ = json.Unmarshal(raw, &name)
	return name
}

// scanModel scans the model array, counting its elements and the op
// records of model[5] (at most MaxOps).
func (s *jsonScanner) scanModel(d *jsonDoc) bool {
	var ok bool
	d.fields, ok = s.elements(func(i int) bool {
		if i != 5 {
			return s.value(0)
		}
		c, ok := s.next()
		if !ok || c != '[' {
			return ok && s.value(0)
		}
		d.ops, ok = s.elements(func(k int) bool {
			if k == MaxOps {
				s.ws()
				s.err = &fieldError{offset: s.offset(), err: fmt.Errorf("json: model[5] %w of %d", ErrOpLimit, MaxOps)}
				return false
			}
			return s.value(1)
		})
		return ok
	})
	return ok
}

// jsonKind names the kind of the value that starts with c.
func jsonKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	}
	return "number"
}

// check checks the top-level fields the first pass found.
func (d *jsonDoc) check() error {
	field := func(off int64, err error) error { return &fieldError{offset: off, err: err} }
	var meta string
	if d.meta != nil {
		_ = json.Unmarshal(d.meta, &meta)
	}
	spec := string(d.spec)
	switch {
	case d.meta == nil:
		return errors.New(`json: missing "meta"`)
	case meta != "ALIRModel":
		return field(d.metaOff, fmt.Errorf(`json: meta is %q, want "ALIRModel"`, meta))
	case d.spec == nil:
		return errors.New(`json: missing "spec_version"`)
	case spec != "2" && spec != "3" && spec != "4":
		return field(d.specOff, fmt.Errorf("json: spec_version %s is not supported (want the number 2, 3 or 4)", spec))
	case d.model < 0:
		return errors.New(`json: missing "model"`)
	case d.fields != 8 && d.fields != 9:
		return field(d.model, fmt.Errorf("json: model has %d fields, want 8 or 9", d.fields))
	}
	d.spec0 = int(spec[0] - '0')
	return nil
}

// decodeModel is the second pass: the model array, whose op records are
// decoded one at a time as they are read. An error about a value is
// placed at it.
func (src jsonSource) decodeModel(d *jsonDoc) (*Program, error) {
	s, err := src.scanner()
	if err != nil {
		return nil, err
	}
	if !s.skipTo(d.model) {
		return nil, s.err
	}
	if _, ok := s.next(); !ok {
		return nil, s.err
	}
	m := make([]json.RawMessage, d.fields)
	moff := make([]int64, d.fields)
	inModel := func(k int) (int64, []byte, bool) {
		if k >= len(m) || m[k] == nil {
			return 0, nil, false
		}
		return moff[k], m[k], true
	}
	var p *Program
	var perr error
	_, ok := s.elements(func(i int) bool {
		if i == 5 {
			perr = decodeOps(s, p, d.spec0, d.ops)
			return perr == nil && s.err == nil
		}
		raw, off, ok := s.rawValue()
		m[i], moff[i] = bytes.Clone(raw), off
		if ok && i == 4 {
			if p, err = decodeHeader(m); err != nil {
				perr = placed(err, 0, inModel)
				return false
			}
		}
		return ok
	})
	switch {
	case perr != nil:
		return nil, perr
	case !ok:
		return nil, s.err
	}
	p.Spec = d.spec0
	if err := decodeTail(p, m); err != nil {
		return nil, placed(err, 0, inModel)
	}
	return p, nil
}

// decodeOps reads model[5], at most n op records of a spec version spec
// document, into p.Ops.
func decodeOps(s *jsonScanner, p *Program, spec, n int) error {
	j := jsonPath("model").at(5)
	if c, ok := s.next(); !ok || c != '[' {
		raw, off, _ := s.rawValue()
		return placed(j.errorf("want an array"), 0, func(int) (int64, []byte, bool) { return off, raw, true })
	}
	p.Ops = make([]Op, 0, n)
	var perr error
	s.elements(func(i int) bool {
		raw, off, ok := s.rawValue()
		if !ok {
			return false
		}
		var op Op
		var err error
		var fast bool
		if spec >= 3 {
			if op, fast = fastOpV4(raw, i, spec); !fast {
				op, err = decodeOpV4(j.at(i), i, raw, spec)
			}
		} else if op, fast = fastOp(raw); !fast {
			op, err = decodeOp(j.at(i), raw)
		}
		if err != nil {
			perr = placed(err, 1, func(k int) (int64, []byte, bool) { return off, raw, k == i })
			return false
		}
		p.Ops = append(p.Ops, op)
		return true
	})
	return perr
}

// placed is err, an error of the model's decoding, as a fieldError at the
// place its path names ("model[k]..." when skip is 0, "model[5][k]..."
// when 1): find gives the offset and bytes of value k, if it has them.
func placed(err error, skip int, find func(k int) (int64, []byte, bool)) error {
	err = fmt.Errorf("json: %w", err)
	var pe *pathError
	if !errors.As(err, &pe) {
		return err
	}
	_, idx, ok := parsePath(pe.path)
	if !ok || len(idx) <= skip {
		return err
	}
	off, raw, ok := find(idx[skip])
	if !ok {
		return err
	}
	return &fieldError{offset: off + rawOffset(raw, idx[skip+1:]), err: err}
}

// jsonPath names a position in the model array for error messages.
type jsonPath string

func (j jsonPath) at(i int) jsonPath { return j + "[" + jsonPath(strconv.Itoa(i)) + "]" }

func (j jsonPath) errorf(format string, args ...any) error {
	return &pathError{path: j, msg: fmt.Sprintf(format, args...)}
}

func unmarshalNumbers(raw json.RawMessage, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

func (j jsonPath) array(raw json.RawMessage, n int) ([]json.RawMessage, error) {
	a, _, ok := splitArray(raw)
	if !ok {
		return nil, j.errorf("want an array")
	}
	if n >= 0 && len(a) != n {
		return nil, j.errorf("has %d elements, want %d", len(a), n)
	}
	return a, nil
}

func (j jsonPath) int64(raw json.RawMessage) (int64, error) {
	n, ok := numberText(raw)
	if !ok {
		return 0, j.errorf("want an integer, got %s", abbrev(raw))
	}
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		// Opcode 5 may hold a 64-bit pattern written as an unsigned number.
		u, uerr := strconv.ParseUint(n, 10, 64)
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
	n, ok := numberText(raw)
	if !ok {
		return 0, j.errorf("want a number, got %s", abbrev(raw))
	}
	v, err := strconv.ParseFloat(n, 64)
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
func EncodeJSON(p *Program) ([]byte, error) { return encodeBytes(p, WriteJSON) }

// encodeBytes returns what write writes of p, in one buffer sized for it.
func encodeBytes(p *Program, write func(io.Writer, *Program) error) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(64*len(p.Ops) + 1024) // about 60 bytes an op
	if err := write(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteJSON is EncodeJSON writing to w as it goes (in blocks of 64 KiB:
// the document is never held whole).
func WriteJSON(w io.Writer, p *Program) error {
	p, err := Convert(p, ALIR)
	if err != nil {
		return err
	}
	if p, err = ToSpec2(p); err != nil {
		return err
	}
	inf, err := p.analyze()
	if err != nil {
		return err
	}
	return writeJSON(w, p, inf, SpecVersion)
}

// jsonBlock is the size of the blocks writeJSON hands to its writer.
const jsonBlock = 64 << 10

// writeJSON writes the ALIR program p in the JSON layout of spec 2 or 4
// to w, in blocks of about jsonBlock bytes.
func writeJSON(w io.Writer, p *Program, inf *info, spec int) error {
	lookupOperand := map[int32]bool{}
	for _, op := range p.Ops {
		if op.Opcode == OpLookup {
			lookupOperand[op.ID0] = true
		}
	}
	b := make([]byte, 0, jsonBlock+4096)
	var werr error
	// flush hands the block to w once it is full (at the end: whatever
	// is left).
	flush := func(end bool) {
		if (len(b) >= jsonBlock || end) && werr == nil {
			_, werr = w.Write(b)
			b = b[:0]
		}
	}
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
		fb, err := appendPyFloat(b, v)
		if err != nil && ferr == nil {
			ferr = err
		}
		b = fb
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
			return err
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
		flush(false)
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
			flush(false)
		}
		b = append(b, ']')
	} else if spec >= 3 {
		b = append(b, ",null"...) // save() always writes the tables
	}
	b = append(b, `],"meta":"ALIRModel","spec_version":`...)
	b = strconv.AppendInt(b, int64(spec), 10)
	b = append(b, '}')
	if ferr != nil {
		return ferr
	}
	flush(true)
	return werr
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
	b, err := appendPyFloat(nil, v)
	return string(b), err
}

// appendPyFloat appends pyFloat(v) to b, allocating nothing but b's growth.
func appendPyFloat(b []byte, v float64) ([]byte, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return b, fmt.Errorf("json: cannot write non-finite number %v", v)
	}
	var sb, db [32]byte
	s := strconv.AppendFloat(sb[:0], v, 'e', -1, 64) // [-]d[.ddd]e±XX
	if s[0] == '-' {
		b, s = append(b, '-'), s[1:]
	}
	e := bytes.IndexByte(s, 'e')
	digits := append(db[:0], s[0])
	if e > 1 {
		digits = append(digits, s[2:e]...) // (s[1] is the point)
	}
	exp := 0
	for _, c := range s[e+2:] {
		exp = 10*exp + int(c-'0')
	}
	if s[e+1] == '-' {
		exp = -exp
	}
	zeros := func(n int) {
		for range n {
			b = append(b, '0')
		}
	}
	switch {
	case exp < -4 || exp >= 16:
		b = append(b, digits[0])
		if len(digits) > 1 {
			b = append(append(b, '.'), digits[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b, exp = append(b, '-'), -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(exp), 10)
	case exp < 0:
		b = append(b, "0."...)
		zeros(-exp - 1)
		b = append(b, digits...)
	case len(digits) <= exp+1:
		b = append(b, digits...)
		zeros(exp + 1 - len(digits))
		b = append(b, ".0"...)
	default:
		b = append(append(append(b, digits[:exp+1]...), '.'), digits[exp+1:]...)
	}
	return b, nil
}
