package alir

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// ReadRows reads samples in the text form of the conformance files: one
// sample per line, values separated by white space. Blank lines are
// skipped. It returns the values row-major, the number of rows and the
// number of values per row, which must be the same on every line.
func ReadRows(r io.Reader) (vals []float64, rows, cols int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<30)
	cols = -1
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if cols >= 0 && len(fields) != cols {
			return nil, 0, 0, fmt.Errorf("line %d: %d values, earlier lines have %d", line, len(fields), cols)
		}
		cols = len(fields)
		for _, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, 0, 0, fmt.Errorf("line %d: bad number %q", line, f)
			}
			vals = append(vals, v)
		}
		rows++
	}
	if err := sc.Err(); err != nil {
		return nil, 0, 0, err
	}
	return vals, rows, max(cols, 0), nil
}

// AppendRow formats one row as the conformance files do: each value with 17
// significant digits (C's %.17g; infinities and NaN as "inf", "-inf" and
// "nan"), separated by spaces, ending in a newline.
func AppendRow(b []byte, row []float64) []byte {
	for i, v := range row {
		if i > 0 {
			b = append(b, ' ')
		}
		switch {
		case math.IsNaN(v):
			b = append(b, "nan"...)
		case math.IsInf(v, 1):
			b = append(b, "inf"...)
		case math.IsInf(v, -1):
			b = append(b, "-inf"...)
		default:
			b = strconv.AppendFloat(b, v, 'g', 17, 64)
		}
	}
	return append(b, '\n')
}

// WriteRows writes vals (row-major, cols values per row) with AppendRow.
func WriteRows(w io.Writer, vals []float64, cols int) error {
	bw := bufio.NewWriter(w)
	var b []byte
	if cols == 0 {
		return nil
	}
	for r := 0; r+cols <= len(vals); r += cols {
		b = AppendRow(b[:0], vals[r:r+cols])
		if _, err := bw.Write(b); err != nil {
			return err
		}
	}
	return bw.Flush()
}
