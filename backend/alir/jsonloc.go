package alir

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// JSONError is an error in an ALIR JSON document at a place in its text:
// Line and Col (1-based, Col in bytes) of the value or character at fault,
// and its byte Offset. Line is 0 when the place is unknown (a missing field,
// a program that fails validation) and for gzip-compressed files, whose
// decompressed text is not what an editor shows. Error() is the message
// without the place, as before.
type JSONError struct {
	Line, Col int
	Offset    int64
	Err       error
}

func (e *JSONError) Error() string { return e.Err.Error() }
func (e *JSONError) Unwrap() error { return e.Err }

// Position is the place's line and column (diag.Positioned).
func (e *JSONError) Position() (line, col int) { return e.Line, e.Col }

// pathError is a value of the model that is not what it should be; path
// names it ("model[5][3][4]") so that DecodeJSON can find its place.
type pathError struct {
	path jsonPath
	msg  string
}

func (e *pathError) Error() string { return string(e.path) + ": " + e.msg }

// locateJSON wraps err (a decoding error of document data) in a JSONError
// with the place it refers to, when it can be found. gz tells that data was
// decompressed: the place is then not given.
func locateJSON(data []byte, gz bool, err error) error {
	if err == nil {
		return nil
	}
	off := int64(-1)
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var pe *pathError
	var fe *fieldError
	switch {
	case errors.As(err, &se):
		// Offset counts the bytes read, the offending one included.
		off = max(se.Offset-1, 0)
	case errors.As(err, &te):
		off = valueOffset(data, te.Field, nil)
	case errors.As(err, &pe):
		if key, idx, ok := parsePath(pe.path); ok {
			off = valueOffset(data, key, idx)
		}
	case errors.As(err, &fe):
		off = fe.offset
		if off < 0 {
			off = valueOffset(data, fe.key, nil)
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

// fieldError is an error about a top-level field of the document (key), or
// at a known offset (trailing data).
type fieldError struct {
	key    string
	offset int64
	err    error
}

func (e *fieldError) Error() string { return e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// lineCol gives the 1-based line and byte column of offset off in data.
func lineCol(data []byte, off int64) (line, col int) {
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// parsePath reads "model[5][3]" as the key "model" and indices [5, 3].
func parsePath(p jsonPath) (string, []int, bool) {
	s := string(p)
	i := strings.IndexByte(s, '[')
	if i < 0 {
		return s, nil, s != ""
	}
	key, rest := s[:i], s[i:]
	var idx []int
	for rest != "" {
		j := strings.IndexByte(rest, ']')
		if rest[0] != '[' || j < 0 {
			return "", nil, false
		}
		n, err := strconv.Atoi(rest[1:j])
		if err != nil {
			return "", nil, false
		}
		idx = append(idx, n)
		rest = rest[j+1:]
	}
	return key, idx, true
}

// valueOffset finds the byte offset of the value of top-level key in the
// JSON object data, then of element idx[0] of that array, and so on; -1 if
// it is not there. Like encoding/json, the last of repeated keys counts. It
// runs only on the error path.
func valueOffset(data []byte, key string, idx []int) int64 {
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
		start := nextValue(data, dec.InputOffset())
		if k == key {
			found = start
		}
		if skipValue(dec) != nil {
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
				off += nextValue(data[off:], dec.InputOffset())
				break
			}
			if skipValue(dec) != nil {
				return -1
			}
		}
	}
	return off
}

// nextValue skips white space, ':' and ',' from offset off of data: the
// start of the next value.
func nextValue(data []byte, off int64) int64 {
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

// skipValue reads one whole value from dec.
func skipValue(dec *json.Decoder) error {
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
