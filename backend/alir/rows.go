package alir

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
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
		if err := sc.Err(); err != nil {
			// The reader failed (a bounded reader's limit, say): the last
			// line is cut short, not a line to judge.
			return nil, 0, 0, err
		}
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if cols >= 0 && len(fields) != cols {
			return nil, 0, 0, &RowError{Line: line, Col: fieldCol(sc.Text(), min(len(fields), cols)), Err: fmt.Errorf("%d values, earlier lines have %d", len(fields), cols)}
		}
		cols = len(fields)
		for i, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, 0, 0, &RowError{Line: line, Col: fieldCol(sc.Text(), i), Err: fmt.Errorf("bad number %q", f[:min(len(f), maxQuoted)])}
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

// maxQuoted is the most bytes of a bad value an error quotes (diag shortens
// the message further; quoting a whole 1 GB line first would take 4 GB).
const maxQuoted = 1024

// RowError is an error at a place of a sample file: Line and Col (1-based,
// Col in bytes) of the value at fault, or of the end of a short line.
type RowError struct {
	Line, Col int
	Err       error
}

func (e *RowError) Error() string             { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *RowError) Unwrap() error             { return e.Err }
func (e *RowError) Position() (line, col int) { return e.Line, e.Col }

// fieldCol is the 1-based column of field i of a line (fields separated by
// white space as strings.Fields splits them); past the last field, the
// column after the line.
func fieldCol(line string, i int) int {
	in, n := false, -1
	for j, r := range line {
		sp := unicode.IsSpace(r)
		if !sp && !in {
			n++
			if n == i {
				return j + 1
			}
		}
		in = !sp
	}
	return len(line) + 1
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

// ReadRowsFile reads the file at path with ReadRows; an error in its text
// names the file.
func ReadRowsFile(path string) (vals []float64, rows, cols int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, err
	}
	defer f.Close()
	if vals, rows, cols, err = ReadRows(f); err != nil {
		return nil, 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return vals, rows, cols, nil
}
