package alir

import "strconv"

// The op records of a document, in the form every writer gives them (plain
// number literals, the right counts), are decoded here straight from their
// bytes; a record in any other form (a number in a string, null, a field
// too many, a value out of range) goes to decodeOp or decodeOpV4, which
// give the same op or the error. TestJSONStreamEquivalent holds the two
// paths to the same result.

// recordReader reads the bytes of one op record, a valid JSON value.
type recordReader struct {
	b []byte
	i int
}

func (r *recordReader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\r', '\n':
			r.i++
		default:
			return
		}
	}
}

// is consumes c, after white space, if it is next.
func (r *recordReader) is(c byte) bool {
	r.ws()
	if r.i < len(r.b) && r.b[r.i] == c {
		r.i++
		return true
	}
	return false
}

// literal returns the number literal that is next, if one is.
func (r *recordReader) literal() ([]byte, bool) {
	r.ws()
	start := r.i
	for r.i < len(r.b) {
		c := r.b[r.i]
		if !isDigit(c) && c != '-' && c != '+' && c != '.' && c != 'e' && c != 'E' {
			break
		}
		r.i++
	}
	return r.b[start:r.i], r.i > start
}

func (r *recordReader) int64() (int64, bool) {
	l, ok := r.literal()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(l), 10, 64)
	return v, err == nil
}

func (r *recordReader) int32() (int32, bool) {
	v, ok := r.int64()
	return int32(v), ok && v == int64(int32(v))
}

func (r *recordReader) float() (float64, bool) {
	l, ok := r.literal()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(l), 64)
	return v, err == nil
}

// tail reads the common end of both record forms: the interval, the
// latency and the cost, then the record's ']'.
func (r *recordReader) tail(op *Op) bool {
	var ok [6]bool
	if !r.is('[') {
		return false
	}
	op.QInt.Min, ok[0] = r.float()
	ok[1] = r.is(',')
	op.QInt.Max, ok[2] = r.float()
	ok[3] = r.is(',')
	op.QInt.Step, ok[4] = r.float()
	ok[5] = r.is(']') && r.is(',')
	if ok != [6]bool{true, true, true, true, true, true} {
		return false
	}
	var lok, cok bool
	op.Latency, lok = r.float()
	sep := r.is(',')
	op.Cost, cok = r.float()
	end := r.is(']')
	r.ws()
	return lok && sep && cok && end && r.i == len(r.b)
}

// fastOp decodes a spec-2 record [id0, id1, opcode, data, [min, max, step],
// latency, cost] as decodeOp does; false when it is in another form.
func fastOp(raw []byte) (Op, bool) {
	r := recordReader{b: raw}
	var op Op
	var ok [8]bool
	ok[0] = r.is('[')
	op.ID0, ok[1] = r.int32()
	ok[2] = r.is(',')
	op.ID1, ok[3] = r.int32()
	ok[4] = r.is(',')
	var code int32
	code, ok[5] = r.int32()
	op.Opcode = Opcode(code)
	ok[6] = r.is(',')
	op.Data, ok[7] = r.int64()
	if ok != [8]bool{true, true, true, true, true, true, true, true} || !r.is(',') {
		return Op{}, false
	}
	op = canonicalData(op)
	return op, r.tail(&op)
}

// ints reads a list of integers within int64, at most maxV4List.
func (r *recordReader) ints() ([]int64, bool) {
	if !r.is('[') {
		return nil, false
	}
	out := []int64{}
	if r.is(']') {
		return out, true
	}
	for len(out) < maxV4List {
		v, ok := r.int64()
		if !ok {
			return nil, false
		}
		out = append(out, v)
		if r.is(']') {
			return out, true
		}
		if !r.is(',') {
			return nil, false
		}
	}
	return nil, false
}

// fastOpV4 decodes record i of a spec 3 or 4 document, [addr[], opcode,
// data[], [min, max, step], latency, cost], as decodeOpV4 does; false when
// it is in another form or opFromV4 rejects it.
func fastOpV4(raw []byte, i, spec int) (Op, bool) {
	r := recordReader{b: raw}
	if !r.is('[') {
		return Op{}, false
	}
	addr, ok := r.ints()
	if !ok || !r.is(',') {
		return Op{}, false
	}
	code, ok := r.int64()
	if !ok || !r.is(',') {
		return Op{}, false
	}
	data, ok := r.ints()
	if !ok || !r.is(',') {
		return Op{}, false
	}
	op, _, _, err := opFromV4(i, code, addr, data, spec, false)
	if err != nil {
		return Op{}, false
	}
	return op, r.tail(&op)
}
