package alir

import (
	"bytes"
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

// fieldError is an error at a known offset of the text.
type fieldError struct {
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
