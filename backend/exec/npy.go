package exec

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"otir/ir"
)

// The .npy boundary of the executor (NumPy format versions 1.0 to 3.0).
// Each element type has one NumPy dtype: a signed iN is the smallest of
// int8/16/32/64 that holds it, an unsigned uN the smallest of
// uint8/16/32/64 (u1, the boolean, is bool), index is int64, f16/f32/f64
// are float16/32/64, and bf16 (which NumPy lacks) is float32 whose values
// are rounded to bf16 on reading. Integers wider than 64 bits have no
// dtype. Reading requires exactly that dtype (either byte order) and values
// of the element type.

// npyDtype returns the dtype code (kind letter and byte size, e.g. "i2") of
// an element type.
func npyDtype(elem ir.Type) (string, error) {
	switch t := elem.(type) {
	case *ir.IndexType:
		return "i8", nil
	case *ir.FloatType:
		switch t.Kind {
		case ir.F16:
			return "f2", nil
		case ir.F64:
			return "f8", nil
		}
		return "f4", nil
	case *ir.IntType:
		if t.Width == 1 {
			return "b1", nil
		}
		kind := "u"
		if t.Signed {
			kind = "i"
		}
		for _, size := range []int{1, 2, 4, 8} {
			if t.Width <= size*8 {
				return kind + strconv.Itoa(size), nil
			}
		}
		return "", fmt.Errorf("%s elements are wider than 64 bits, which .npy files cannot hold", t)
	}
	return "", fmt.Errorf("%s has no .npy dtype", elem)
}

// npyName is a dtype code in NumPy's words (int16, bool, ...).
func npyName(code string) string {
	size, _ := strconv.Atoi(code[1:])
	switch code[0] {
	case 'b':
		return "bool"
	case 'i':
		return fmt.Sprintf("int%d", size*8)
	case 'u':
		return fmt.Sprintf("uint%d", size*8)
	case 'f':
		return fmt.Sprintf("float%d", size*8)
	}
	return code
}

var (
	npyDescrRE   = regexp.MustCompile(`'descr'\s*:\s*'([<>|=]?)([a-zA-Z])(\d+)'`)
	npyFortranRE = regexp.MustCompile(`'fortran_order'\s*:\s*(True|False)`)
	npyShapeRE   = regexp.MustCompile(`'shape'\s*:\s*\(([^)]*)\)`)
)

// ReadNpy reads a .npy array into a buffer of element type elem; the
// array's dtype must be elem's (see above) and its values must be values of
// elem. The shape is the array's.
func ReadNpy(r io.Reader, elem ir.Type) (*Buffer, error) {
	want, err := npyDtype(elem)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	if len(data) < 10 || string(data[:6]) != "\x93NUMPY" {
		return nil, fmt.Errorf("not a .npy file (no \\x93NUMPY magic)")
	}
	var hlen, start int
	switch data[6] {
	case 1:
		hlen, start = int(binary.LittleEndian.Uint16(data[8:10])), 10
	case 2, 3:
		if len(data) < 12 {
			return nil, fmt.Errorf("truncated .npy header")
		}
		hlen, start = int(binary.LittleEndian.Uint32(data[8:12])), 12
	default:
		return nil, fmt.Errorf("unsupported .npy version %d.%d", data[6], data[7])
	}
	if start+hlen > len(data) {
		return nil, fmt.Errorf("truncated .npy header")
	}
	header := string(data[start : start+hlen])
	body := data[start+hlen:]
	d := npyDescrRE.FindStringSubmatch(header)
	s := npyShapeRE.FindStringSubmatch(header)
	if d == nil || s == nil {
		return nil, fmt.Errorf("cannot read the .npy header %q", strings.TrimSpace(header))
	}
	order := binary.ByteOrder(binary.LittleEndian)
	if d[1] == ">" {
		order = binary.BigEndian
	}
	if got := d[2] + d[3]; got != want {
		return nil, fmt.Errorf("holds %s (dtype '%s%s') but %s elements are read from %s", npyName(got), d[1], got, elem, npyName(want))
	}
	var shape []int64
	count := int64(1)
	for _, part := range strings.Split(s[1], ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		n, err := strconv.ParseInt(part, 10, 64)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("unsupported .npy shape (%s)", s[1])
		}
		if n > int64(len(body)) || count*n > int64(len(body)) {
			return nil, fmt.Errorf("holds %d bytes of data, too few for its shape (%s)", len(body), s[1])
		}
		count *= n
		shape = append(shape, n)
	}
	size, _ := strconv.Atoi(want[1:])
	if int64(len(body)) < count*int64(size) {
		return nil, fmt.Errorf("holds %d bytes of data, not the %d its shape needs", len(body), count*int64(size))
	}
	b := NewBuffer(elem, shape...)
	n := b.Len()
	fortran := false
	if f := npyFortranRE.FindStringSubmatch(header); f != nil && f[1] == "True" {
		fortran = true
	}
	for i := 0; i < n; i++ {
		src := i
		if fortran {
			src = fortranIndex(i, shape)
		}
		v, err := decodeNpy(body[src*size:(src+1)*size], want, order)
		if err != nil {
			return nil, err
		}
		if b.IsFloat() {
			b.Floats[i] = roundFloat64(v.f, elem.(*ir.FloatType).Kind)
			continue
		}
		if !inRange(v, elem) {
			return nil, fmt.Errorf("element %s = %s is not a value of %s", coordString(unflatten(int64(i), shape)), v, elem)
		}
		b.setNum(i, v)
	}
	return b, nil
}

// fortranIndex maps a row-major element index to its column-major position.
func fortranIndex(i int, shape []int64) int {
	c := unflatten(int64(i), shape)
	pos, stride := int64(0), int64(1)
	for d := range shape {
		pos += c[d] * stride
		stride *= shape[d]
	}
	return int(pos)
}

// decodeNpy decodes one element of a dtype code.
func decodeNpy(b []byte, code string, order binary.ByteOrder) (num, error) {
	var u uint64
	switch len(b) {
	case 1:
		u = uint64(b[0])
	case 2:
		u = uint64(order.Uint16(b))
	case 4:
		u = uint64(order.Uint32(b))
	case 8:
		u = order.Uint64(b)
	}
	bits := uint(len(b) * 8)
	switch code[0] {
	case 'b':
		if u > 1 {
			return num{}, fmt.Errorf("bool element holds %d", u)
		}
		return intNum(int64(u)), nil
	case 'i':
		return intNum(int64(u<<(64-bits)) >> (64 - bits)), nil
	case 'u':
		if u > math.MaxInt64 {
			return bigNum(new(big.Int).SetUint64(u)), nil
		}
		return intNum(int64(u)), nil
	}
	switch len(b) {
	case 2:
		return floatNum(f16FromBits(uint16(u))), nil
	case 4:
		return floatNum(float64(math.Float32frombits(uint32(u)))), nil
	}
	return floatNum(math.Float64frombits(u)), nil
}

// WriteNpy writes a buffer as a little-endian, C-order .npy (version 1.0)
// array of its element type's dtype.
func WriteNpy(w io.Writer, b *Buffer) error {
	code, err := npyDtype(b.Elem)
	if err != nil {
		return err
	}
	descr := "<" + code
	if code[1] == '1' {
		descr = "|" + code
	}
	dims := make([]string, len(b.Shape))
	for i, d := range b.Shape {
		dims[i] = strconv.FormatInt(d, 10)
	}
	shape := strings.Join(dims, ", ")
	if len(dims) == 1 {
		shape += ","
	}
	header := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, shape)
	// Pad with spaces so that the data starts on a multiple of 64 bytes.
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	var buf bytes.Buffer
	buf.WriteString("\x93NUMPY\x01\x00")
	_ = binary.Write(&buf, binary.LittleEndian, uint16(len(header)))
	buf.WriteString(header)
	size, _ := strconv.Atoi(code[1:])
	el := make([]byte, 8)
	for i := 0; i < b.Len(); i++ {
		n := b.num(i)
		var u uint64
		switch {
		case code == "f2":
			u = uint64(f16Bits(n.f))
		case code == "f4":
			u = uint64(math.Float32bits(float32(n.f)))
		case code == "f8":
			u = math.Float64bits(n.f)
		case n.k == kBig:
			u = n.b.Uint64() // a u64 value above 2^63
		default:
			u = uint64(n.i)
		}
		binary.LittleEndian.PutUint64(el, u)
		buf.Write(el[:size])
	}
	_, err = w.Write(buf.Bytes())
	return err
}
