// Package npy is the project's only reader and writer of NumPy .npy files
// (format versions 1.0, 2.0 and 3.0) holding numeric arrays, and of .npz
// archives of them (npz.go: ReadNPZ, WriteNPZ).
//
// ReadArray and WriteArray work on typed arrays (Array): booleans, signed
// and unsigned integers of 1, 2, 4 and 8 bytes kept exactly as int64 and
// uint64, and float16/32/64 kept as float64 (every float16 and float32 value
// is exactly a float64). Read and Write are the float64 convenience the
// ALIR sample runner uses: any numeric dtype read as float64 values, and
// little-endian float64 ('<f8') written.
//
// Reading accepts little-endian, big-endian ('>') and native ('=', taken as
// little-endian) byte orders and C or Fortran order; Fortran-order data is
// reordered so that an Array is always in C (row-major) order. Writing
// produces little-endian, C-order, format 1.0 files with the 64-byte
// aligned header NumPy writes. Complex, string, object, datetime and
// structured dtypes are rejected. Malformed files (bad magic, truncated
// header, malformed header dictionary, bad or too large shape, truncated
// data, trailing bytes, bool bytes other than 0 and 1) give errors, never
// panics, and the memory a read allocates is bounded by the file's size;
// an archive's reader (ReadNPZLimit) also bounds it by a total, checked
// against each member's header before the member is inflated.
//
// Why no library: github.com/sbinet/npyio (v0.6.0, its latest release,
// January 2022) was evaluated for this package. It has no float16, writes
// only one-dimensional slices (or gonum float64 matrices) with a format 2.0
// header not padded as NumPy pads it, rejects format 3.0, and on corrupted
// input it panics (header keys in another order, a header without a
// newline, a huge shape) or silently returns zeros (truncated data, bool
// bytes other than 0/1) and ignores trailing bytes; it also pulls in gonum.
// Wrapping it would have meant validating every file here first, so the
// format (a short header and raw little- or big-endian values) is
// implemented directly on the standard library.
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

// maxElems bounds the number of elements a reader accepts.
const maxElems = math.MaxInt32

// DType is an element type: a kind and a size in bytes.
type DType struct {
	// Kind is 'b' (bool), 'i' (signed integer), 'u' (unsigned integer) or
	// 'f' (IEEE float).
	Kind byte
	// Size is 1 for bool; 1, 2, 4 or 8 for integers; 2, 4 or 8 for floats.
	Size int
}

// The dtypes this package reads and writes.
var (
	Bool    = DType{'b', 1}
	Int8    = DType{'i', 1}
	Int16   = DType{'i', 2}
	Int32   = DType{'i', 4}
	Int64   = DType{'i', 8}
	Uint8   = DType{'u', 1}
	Uint16  = DType{'u', 2}
	Uint32  = DType{'u', 4}
	Uint64  = DType{'u', 8}
	Float16 = DType{'f', 2}
	Float32 = DType{'f', 4}
	Float64 = DType{'f', 8}
)

// Valid reports whether d is one of the dtypes above.
func (d DType) Valid() bool {
	switch d.Kind {
	case 'b':
		return d.Size == 1
	case 'i', 'u':
		return d.Size == 1 || d.Size == 2 || d.Size == 4 || d.Size == 8
	case 'f':
		return d.Size == 2 || d.Size == 4 || d.Size == 8
	}
	return false
}

// String is the dtype code without byte order, e.g. "i2" or "b1".
func (d DType) String() string { return string(d.Kind) + strconv.Itoa(d.Size) }

// Descr is the little-endian descriptor WriteArray writes, e.g. "<i2", or
// "|u1" for one-byte dtypes.
func (d DType) Descr() string {
	if d.Size == 1 {
		return "|" + d.String()
	}
	return "<" + d.String()
}

// Name is NumPy's name of the dtype: "bool", "int16", "float32", ...
func (d DType) Name() string {
	switch d.Kind {
	case 'b':
		return "bool"
	case 'i':
		return fmt.Sprintf("int%d", 8*d.Size)
	case 'u':
		return fmt.Sprintf("uint%d", 8*d.Size)
	case 'f':
		return fmt.Sprintf("float%d", 8*d.Size)
	}
	return d.String()
}

// Array is a typed n-dimensional array in C (row-major) order. Exactly the
// value slice of its dtype's kind is used; it holds Len() values.
type Array struct {
	DType DType
	Shape []int // empty for a scalar (one value)
	// BigEndian reports that the file read was big-endian. WriteArray
	// ignores it and always writes little-endian.
	BigEndian bool

	Bools  []bool    // Kind 'b'
	Ints   []int64   // Kind 'i'
	Uints  []uint64  // Kind 'u'
	Floats []float64 // Kind 'f'
}

// Len is the number of elements the shape holds.
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// values is the length of the value slice of a's kind.
func (a *Array) values() int {
	switch a.DType.Kind {
	case 'b':
		return len(a.Bools)
	case 'i':
		return len(a.Ints)
	case 'u':
		return len(a.Uints)
	}
	return len(a.Floats)
}

// Float64s returns the values converted to float64 (bools are 0 and 1;
// integers beyond 2^53 are rounded).
func (a *Array) Float64s() []float64 {
	out := make([]float64, a.values())
	switch a.DType.Kind {
	case 'b':
		for i, v := range a.Bools {
			if v {
				out[i] = 1
			}
		}
	case 'i':
		for i, v := range a.Ints {
			out[i] = float64(v)
		}
	case 'u':
		for i, v := range a.Uints {
			out[i] = float64(v)
		}
	default:
		copy(out, a.Floats)
	}
	return out
}

// parseDescr parses a descriptor such as '<i4' into a dtype and whether it
// is big-endian.
func parseDescr(s string) (DType, bool, error) {
	bad := fmt.Errorf("npy: unsupported dtype %q (supported: bool, int8..int64, uint8..uint64, float16/32/64)", s)
	if len(s) < 3 {
		return DType{}, false, bad
	}
	big := false
	switch s[0] {
	case '<', '|', '=':
	case '>':
		big = true
	default:
		return DType{}, false, bad
	}
	n, err := strconv.Atoi(s[2:])
	if err != nil {
		return DType{}, false, bad
	}
	d := DType{Kind: s[1], Size: n}
	if !d.Valid() {
		return DType{}, false, bad
	}
	return d, big, nil
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
		if seen[key] {
			return h, fmt.Errorf("npy: header key %q repeated", key)
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
		return "", s, errors.New("npy: expected a string in the header (structured dtypes are not supported)")
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

// shapeText is a shape as a Python tuple: (), (3,), (2, 3).
func shapeText(shape []int) string {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	if len(shape) == 1 {
		return "(" + dims[0] + ",)"
	}
	return "(" + strings.Join(dims, ", ") + ")"
}

// ReadArray reads one typed array from r. The whole rest of r must be the
// array's data.
func ReadArray(r io.Reader) (*Array, error) {
	budget := int64(math.MaxInt64)
	return readArray(r, &budget)
}

// ReadArrayLimit reads one typed array from r (ReadArray), refusing after
// its header, before its data is read, an array that would take more than
// maxBytes of memory: its header, its data bytes and its decoded values
// (8 bytes an element, 1 a bool).
func ReadArrayLimit(r io.Reader, maxBytes int64) (*Array, error) {
	budget := maxBytes
	a, err := readArray(r, &budget)
	if errors.Is(err, errBudget) {
		return nil, fmt.Errorf("%v of %d bytes", err, maxBytes)
	}
	return a, err
}

// memBytes is the memory the data of an array of n elements of dtype dt
// takes while it is read: the file's data bytes and the decoded values
// (one byte per bool, eight per other element).
func memBytes(n int64, dt DType) int64 {
	per := int64(8)
	if dt.Kind == 'b' {
		per = 1
	}
	return n * (int64(dt.Size) + per)
}

// errBudget is the error of a read that would exceed its memory budget.
var errBudget = errors.New("exceeds the memory limit")

// readArray reads one typed array from r and takes the memory it needs
// from *budget: the header, before it is read, then the data (memBytes),
// before the data is read, so that a file declaring more than the budget
// is refused without being inflated.
func readArray(r io.Reader, budget *int64) (*Array, error) {
	br := bufio.NewReader(r)
	var pre [8]byte
	if n, err := io.ReadFull(br, pre[:]); err != nil {
		if !strings.HasPrefix(magic, string(pre[:min(n, len(magic))])) {
			return nil, errors.New("npy: not a .npy file (bad magic string)")
		}
		return nil, errors.New("npy: file too short for the magic string and version")
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
	if int64(hlen) > *budget {
		return nil, fmt.Errorf("npy: header of %d bytes %w", hlen, errBudget)
	}
	*budget -= int64(hlen)
	hb := make([]byte, hlen)
	if _, err := io.ReadFull(br, hb); err != nil {
		return nil, fmt.Errorf("npy: truncated header (%d bytes announced)", hlen)
	}
	h, err := parseHeader(string(hb))
	if err != nil {
		return nil, err
	}
	dt, big, err := parseDescr(h.descr)
	if err != nil {
		return nil, err
	}
	n := 1
	for _, d := range h.shape {
		if d != 0 && n > maxElems/d {
			return nil, fmt.Errorf("npy: shape %s is too large", shapeText(h.shape))
		}
		n *= d
	}
	need := memBytes(int64(n), dt)
	if need > *budget {
		return nil, fmt.Errorf("npy: shape %s of %s needs %d bytes, which %w", shapeText(h.shape), dt.Name(), need, errBudget)
	}
	*budget -= need
	want := int64(n) * int64(dt.Size)
	// Read at most one byte more than the shape needs: memory stays
	// bounded by the file's size, and the extra byte detects trailing data.
	raw, err := io.ReadAll(io.LimitReader(br, want+1))
	if err != nil {
		return nil, fmt.Errorf("npy: reading data: %w", err)
	}
	if int64(len(raw)) < want {
		return nil, fmt.Errorf("npy: truncated data: holds %d bytes of data, not the %d its shape %s needs", len(raw), want, shapeText(h.shape))
	}
	if int64(len(raw)) > want {
		return nil, fmt.Errorf("npy: trailing bytes after the %d bytes of data its shape %s needs", want, shapeText(h.shape))
	}
	var order binary.ByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	a := &Array{DType: dt, Shape: h.shape, BigEndian: big}
	perm := func(i int) int { return i } // C position -> file position
	if h.fortran && len(h.shape) > 1 {
		p := fortranPerm(h.shape, n)
		perm = func(i int) int { return p[i] }
	}
	sz := dt.Size
	switch dt.Kind {
	case 'b':
		a.Bools = make([]bool, n)
		for i := range a.Bools {
			switch v := raw[perm(i)]; v {
			case 0:
			case 1:
				a.Bools[i] = true
			default:
				return nil, fmt.Errorf("npy: bool element holds %d, not 0 or 1", v)
			}
		}
	case 'i':
		a.Ints = make([]int64, n)
		shift := 64 - 8*uint(sz)
		for i := range a.Ints {
			u := load(raw[perm(i)*sz:], sz, order)
			a.Ints[i] = int64(u<<shift) >> shift
		}
	case 'u':
		a.Uints = make([]uint64, n)
		for i := range a.Uints {
			a.Uints[i] = load(raw[perm(i)*sz:], sz, order)
		}
	case 'f':
		a.Floats = make([]float64, n)
		for i := range a.Floats {
			u := load(raw[perm(i)*sz:], sz, order)
			switch sz {
			case 2:
				a.Floats[i] = Float16FromBits(uint16(u))
			case 4:
				a.Floats[i] = float64(math.Float32frombits(uint32(u)))
			default:
				a.Floats[i] = math.Float64frombits(u)
			}
		}
	}
	return a, nil
}

// load reads one unsigned value of size bytes.
func load(b []byte, size int, order binary.ByteOrder) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(order.Uint16(b))
	case 4:
		return uint64(order.Uint32(b))
	}
	return order.Uint64(b)
}

// fortranPerm returns, for each row-major element index, the element's
// position in column-major data of the given shape.
func fortranPerm(shape []int, n int) []int {
	perm := make([]int, n)
	idx := make([]int, len(shape))
	for c := range perm { // c walks the C order; compute the Fortran offset
		f, stride := 0, 1
		for k := range shape {
			f += idx[k] * stride
			stride *= shape[k]
		}
		perm[c] = f
		for k := len(shape) - 1; k >= 0; k-- {
			if idx[k]++; idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return perm
}

// WriteArray writes a as a little-endian, C-order, format 1.0 .npy array of
// its dtype. The value slice of a's kind must hold exactly Len() values,
// and integers must fit the dtype's size; float32 and float16 values are
// rounded to nearest even.
func WriteArray(w io.Writer, a *Array) error {
	dt := a.DType
	if !dt.Valid() {
		return fmt.Errorf("npy: unsupported dtype %s", dt)
	}
	n := 1
	for _, d := range a.Shape {
		if d < 0 {
			return fmt.Errorf("npy: negative dimension in shape %v", a.Shape)
		}
		if d != 0 && n > maxElems/d {
			return fmt.Errorf("npy: shape %v is too large", a.Shape)
		}
		n *= d
	}
	if got := a.values(); got != n {
		return fmt.Errorf("npy: shape %s holds %d values, got %d %s values", shapeText(a.Shape), n, got, dt.Name())
	}
	// Check integer ranges before writing anything.
	switch dt.Kind {
	case 'i':
		lo, hi := int64(-1)<<(8*dt.Size-1), int64(1)<<(8*dt.Size-1)-1
		for i, v := range a.Ints {
			if v < lo || v > hi {
				return fmt.Errorf("npy: element %d = %d does not fit %s", i, v, dt.Name())
			}
		}
	case 'u':
		if dt.Size < 8 {
			hi := uint64(1)<<(8*dt.Size) - 1
			for i, v := range a.Uints {
				if v > hi {
					return fmt.Errorf("npy: element %d = %d does not fit %s", i, v, dt.Name())
				}
			}
		}
	}
	h := "{'descr': '" + dt.Descr() + "', 'fortran_order': False, 'shape': " + shapeText(a.Shape) + ", }"
	total := len(magic) + 4 + len(h) + 1
	h += strings.Repeat(" ", (64-total%64)%64) + "\n"
	if len(h) > math.MaxUint16 {
		return errors.New("npy: header too long")
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(magic)
	bw.Write([]byte{1, 0, byte(len(h)), byte(len(h) >> 8)})
	bw.WriteString(h)
	var b [8]byte
	put := func(u uint64) {
		binary.LittleEndian.PutUint64(b[:], u)
		bw.Write(b[:dt.Size])
	}
	switch dt.Kind {
	case 'b':
		for _, v := range a.Bools {
			if v {
				put(1)
			} else {
				put(0)
			}
		}
	case 'i':
		for _, v := range a.Ints {
			put(uint64(v))
		}
	case 'u':
		for _, v := range a.Uints {
			put(v)
		}
	case 'f':
		for _, v := range a.Floats {
			switch dt.Size {
			case 2:
				put(uint64(Float16Bits(v)))
			case 4:
				put(uint64(math.Float32bits(float32(v))))
			default:
				put(math.Float64bits(v))
			}
		}
	}
	return bw.Flush()
}

// Float64Array is an array of float64 values in C (row-major) order.
type Float64Array struct {
	Shape []int
	Data  []float64
}

// Read reads one array of any supported dtype from r, converting its
// values to float64 (see Array.Float64s). The whole rest of r must be the
// array's data.
func Read(r io.Reader) (*Float64Array, error) {
	a, err := ReadArray(r)
	if err != nil {
		return nil, err
	}
	return &Float64Array{Shape: a.Shape, Data: a.Float64s()}, nil
}

// Write writes data with the given shape as a little-endian float64 array.
func Write(w io.Writer, shape []int, data []float64) error {
	return WriteArray(w, &Array{DType: Float64, Shape: shape, Floats: data})
}

// Float16FromBits decodes an IEEE binary16 value (the float16 dtype) (exactly; NaNs become NaN).
func Float16FromBits(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	e := int(h>>10) & 0x1f
	m := float64(h & 0x3ff)
	switch e {
	case 0:
		return sign * math.Ldexp(m, -24)
	case 0x1f:
		if m != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1+m/1024, e-15)
}

// Float16Bits encodes x as IEEE binary16, rounding to nearest even; values
// from 65520 up overflow to infinity, and NaNs become the quiet NaN 0x7e00.
func Float16Bits(x float64) uint16 {
	var sign uint16
	if math.Signbit(x) {
		sign = 0x8000
	}
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return 0x7e00
	case a >= 65520: // halfway between 65504 and 2^16 rounds to even: 2^16
		return sign | 0x7c00
	case a < math.Ldexp(1, -14): // subnormal, in units of 2^-24
		return sign | uint16(math.RoundToEven(math.Ldexp(a, 24)))
	}
	frac, exp := math.Frexp(a)                  // a = frac * 2^exp, frac in [0.5, 1)
	m := math.RoundToEven(math.Ldexp(frac, 11)) // in [1024, 2048]
	// A mantissa rounded up to 2048 carries into the exponent.
	return sign | (uint16(exp-1+15)<<10 + uint16(m-1024))
}
