// Package npy reads and writes NumPy .npy files (format versions 1.0, 2.0
// and 3.0) holding numeric arrays, converting them to and from float64.
//
// Read accepts little- and big-endian floats (f2 excluded), signed and
// unsigned integers and booleans, in C or Fortran order; Write produces
// little-endian float64 ('<f8') arrays in C order with the 64-byte aligned
// header NumPy writes. Malformed files give errors, never panics.
package npy

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

const magic = "\x93NUMPY"

// maxHeader bounds the header length a reader accepts.
const maxHeader = 1 << 20

// Array is an n-dimensional array in C (row-major) order.
type Array struct {
	Shape []int
	Data  []float64
}

// dtype describes one element type.
type dtype struct {
	kind  byte // 'f', 'i', 'u', 'b'
	size  int
	order binary.ByteOrder
}

func parseDescr(s string) (dtype, error) {
	if len(s) < 3 {
		return dtype{}, fmt.Errorf("npy: unsupported dtype %q", s)
	}
	var d dtype
	switch s[0] {
	case '<', '|', '=':
		d.order = binary.LittleEndian
	case '>':
		d.order = binary.BigEndian
	default:
		return dtype{}, fmt.Errorf("npy: unsupported dtype %q", s)
	}
	d.kind = s[1]
	n, err := strconv.Atoi(s[2:])
	if err != nil {
		return dtype{}, fmt.Errorf("npy: unsupported dtype %q", s)
	}
	d.size = n
	ok := false
	switch d.kind {
	case 'f':
		ok = n == 4 || n == 8
	case 'i', 'u':
		ok = n == 1 || n == 2 || n == 4 || n == 8
	case 'b':
		ok = n == 1
	}
	if !ok {
		return dtype{}, fmt.Errorf("npy: unsupported dtype %q", s)
	}
	return d, nil
}

func (d dtype) decode(b []byte) float64 {
	switch d.kind {
	case 'f':
		if d.size == 4 {
			return float64(math.Float32frombits(d.order.Uint32(b)))
		}
		return math.Float64frombits(d.order.Uint64(b))
	case 'b':
		if b[0] != 0 {
			return 1
		}
		return 0
	}
	var u uint64
	switch d.size {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(d.order.Uint16(b))
	case 4:
		u = uint64(d.order.Uint32(b))
	default:
		u = d.order.Uint64(b)
	}
	if d.kind == 'u' {
		return float64(u)
	}
	shift := 64 - 8*uint(d.size)
	return float64(int64(u<<shift) >> shift)
}

// header is the parsed header dictionary.
type header struct {
	descr   string
	fortran bool
	shape   []int
}

// parseHeader parses the Python dict literal of a .npy header, e.g.
// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }.
func parseHeader(s string) (header, error) {
	var h header
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return h, errors.New("npy: header is not a dictionary")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	seen := map[string]bool{}
	for s != "" {
		key, rest, err := pyString(s)
		if err != nil {
			return h, err
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return h, errors.New("npy: malformed header")
		}
		rest = strings.TrimSpace(rest[1:])
		switch key {
		case "descr":
			if h.descr, rest, err = pyString(rest); err != nil {
				return h, err
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "True"):
				h.fortran, rest = true, rest[4:]
			case strings.HasPrefix(rest, "False"):
				rest = rest[5:]
			default:
				return h, errors.New("npy: fortran_order is not a boolean")
			}
		case "shape":
			if h.shape, rest, err = pyTuple(rest); err != nil {
				return h, err
			}
		default:
			return h, fmt.Errorf("npy: unknown header key %q", key)
		}
		seen[key] = true
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") {
			rest = strings.TrimSpace(rest[1:])
		} else if rest != "" {
			return h, errors.New("npy: malformed header")
		}
		s = rest
	}
	if !seen["descr"] || !seen["shape"] || !seen["fortran_order"] {
		return h, errors.New("npy: header lacks descr, fortran_order or shape")
	}
	return h, nil
}

func pyString(s string) (string, string, error) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", s, errors.New("npy: expected a string in the header")
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, errors.New("npy: unterminated string in the header")
	}
	return s[1 : 1+end], s[2+end:], nil
}

func pyTuple(s string) ([]int, string, error) {
	if !strings.HasPrefix(s, "(") {
		return nil, s, errors.New("npy: shape is not a tuple")
	}
	end := strings.IndexByte(s, ')')
	if end < 0 {
		return nil, s, errors.New("npy: unterminated shape")
	}
	shape := []int{}
	for _, f := range strings.Split(s[1:end], ",") {
		f = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f), "L"))
		if f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, s, fmt.Errorf("npy: bad dimension %q", f)
		}
		shape = append(shape, n)
	}
	return shape, s[end+1:], nil
}

// Read reads one array from r. The whole rest of r must be the array's
// data.
func Read(r io.Reader) (*Array, error) {
	br := bufio.NewReader(r)
	var pre [8]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return nil, errors.New("npy: file too short for the magic string")
	}
	if string(pre[:6]) != magic {
		return nil, errors.New("npy: not a .npy file (bad magic string)")
	}
	var hlen int
	switch pre[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, errors.New("npy: truncated header")
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return nil, errors.New("npy: truncated header")
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("npy: unsupported format version %d.%d", pre[6], pre[7])
	}
	if hlen > maxHeader {
		return nil, fmt.Errorf("npy: header of %d bytes is too long", hlen)
	}
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(br, hb); err != nil {
		return nil, errors.New("npy: truncated header")
	}
	h, err := parseHeader(string(hb))
	if err != nil {
		return nil, err
	}
	dt, err := parseDescr(h.descr)
	if err != nil {
		return nil, err
	}
	n := 1
	for _, d := range h.shape {
		if d != 0 && n > math.MaxInt32/d {
			return nil, fmt.Errorf("npy: shape %v is too large", h.shape)
		}
		n *= d
	}
	raw, err := io.ReadAll(io.LimitReader(br, int64(n)*int64(dt.size)+1))
	if err != nil {
		return nil, fmt.Errorf("npy: %w", err)
	}
	if len(raw) < n*dt.size {
		return nil, fmt.Errorf("npy: truncated data: %d bytes, want %d", len(raw), n*dt.size)
	}
	if len(raw) > n*dt.size {
		return nil, errors.New("npy: trailing bytes after the array")
	}
	a := &Array{Shape: h.shape, Data: make([]float64, n)}
	for i := range a.Data {
		a.Data[i] = dt.decode(raw[i*dt.size:])
	}
	if h.fortran && len(h.shape) > 1 {
		a.Data = fortranToC(a.Data, h.shape)
	}
	return a, nil
}

// fortranToC reorders column-major data to row-major.
func fortranToC(src []float64, shape []int) []float64 {
	dst := make([]float64, len(src))
	idx := make([]int, len(shape))
	for c := range dst { // c walks the C order; compute the Fortran offset
		f, stride := 0, 1
		for k := range shape {
			f += idx[k] * stride
			stride *= shape[k]
		}
		dst[c] = src[f]
		for k := len(shape) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return dst
}

// Write writes data with the given shape as a little-endian float64 array.
func Write(w io.Writer, shape []int, data []float64) error {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		n *= d
	}
	if n != len(data) {
		return fmt.Errorf("npy: shape %v holds %d values, got %d", shape, n, len(data))
	}
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	h := "{'descr': '<f8', 'fortran_order': False, 'shape': " + tuple + ", }"
	total := len(magic) + 4 + len(h) + 1
	pad := (64 - total%64) % 64
	h += strings.Repeat(" ", pad) + "\n"
	if len(h) > math.MaxUint16 {
		return errors.New("npy: header too long")
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(magic)
	bw.Write([]byte{1, 0})
	binary.Write(bw, binary.LittleEndian, uint16(len(h)))
	bw.WriteString(h)
	var b [8]byte
	for _, v := range data {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		bw.Write(b[:])
	}
	return bw.Flush()
}
