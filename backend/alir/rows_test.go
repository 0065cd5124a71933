package alir

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

func TestRows(t *testing.T) {
	vals, rows, cols, err := ReadRows(strings.NewReader("1 2.5 -3\n\n 4e3\t5 0.1 \n"))
	if err != nil || rows != 2 || cols != 3 {
		t.Fatalf("ReadRows: %v %d %d", err, rows, cols)
	}
	var b bytes.Buffer
	WriteRows(&b, append(vals, math.Inf(1), math.NaN(), -1e-20), 3)
	want := "1 2.5 -3\n4000 5 0.10000000000000001\ninf nan -9.9999999999999995e-21\n"
	if b.String() != want {
		t.Errorf("WriteRows:\n%s\nwant\n%s", b.String(), want)
	}
	if _, _, _, err := ReadRows(strings.NewReader("1 2\n3\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ragged rows: %v", err)
	}
	if _, _, _, err := ReadRows(strings.NewReader("1 x\n")); err == nil || !strings.Contains(err.Error(), `"x"`) {
		t.Errorf("bad number: %v", err)
	}
}

func TestRowsFile(t *testing.T) {
	if vals, rows, cols, err := ReadRowsFile("testdata/rows.txt"); err != nil || rows != 2 || cols != 2 || len(vals) != 4 || vals[3] != 4 {
		t.Errorf("ReadRowsFile: %v %d %d %v", vals, rows, cols, err)
	}
	const ragged = "testdata/rows-ragged.txt"
	if _, _, _, err := ReadRowsFile(ragged); err == nil || !strings.HasPrefix(err.Error(), ragged+": ") || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ragged file: %v", err)
	}
	if _, _, _, err := ReadRowsFile("testdata/no-such-file.txt"); err == nil {
		t.Error("a missing file read without an error")
	}
}
