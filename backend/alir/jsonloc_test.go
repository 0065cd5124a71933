package alir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"strings"
	"testing"
)

// Errors at a place of an ALIR JSON document give its line and column.
func TestJSONErrorPlaces(t *testing.T) {
	head := `{"meta": "ALIRModel", "spec_version": 2, "model": [[1, 1], [0],` + "\n"
	ops := `  [[0, -1, -1, 0, [0, 1, 1], 0.0, 0.0]], -1, -1]}`
	for _, c := range []struct {
		name, doc string
		line, col int
		msg       string
	}{
		{"syntax", head + " [0], [0], [false], [[0, -1, -1, 0, [0, 1, 1], 0.0, 0.0]], -1, -1, ]}", 2, 68, "invalid character ']'"},
		{"op field", head + " [0], [0], [false],\n" + `  [[0, -1, -1, 0, [0, "a", 1], 0.0, 0.0]], -1, -1]}`, 3, 23, `model[5][0][4][1]: want a number, got "a"`},
		{"short array", head + " [0], [0], [false],\n  [[0, -1, -1, 0, [0, 1], 0.0, 0.0]], -1, -1]}", 3, 19, "model[5][0][4]: has 2 elements, want 3"},
		{"model field", `{"meta": "ALIRModel", "spec_version": 2, "model": [[1], [0],` + "\n [0], [0], [false],\n" + ops, 1, 52, "model[0]: has 1 elements, want 2"},
		{"boolean", head + " [0], [0], [2],\n" + ops, 2, 13, "model[4][0]: want a boolean, got 2"},
		{"spec_version", "{\"meta\": \"ALIRModel\",\n  \"spec_version\": \"2\", \"model\": []}", 2, 19, `spec_version "2" is not supported`},
		{"repeated key: the last counts", "{\"meta\": \"ALIRModel\", \"spec_version\": 2,\n\"spec_version\": 7, \"model\": []}", 2, 17, "spec_version 7 is not supported"},
		{"meta type", `{"meta": 5}`, 1, 10, "cannot unmarshal number"},
		{"model length", "{\"meta\": \"ALIRModel\", \"spec_version\": 2,\n\t\"model\": [1]}", 2, 11, "model has 1 fields, want 8 or 9"},
		{"trailing", head + " [0], [0], [false],\n" + ops + "\n\n  x", 5, 3, "trailing data"},
		{"missing meta", `{"model": []}`, 0, 0, `missing "meta"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeJSON([]byte(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("error %v, want %q", err, c.msg)
			}
			var je *JSONError
			line, col := 0, 0
			if errors.As(err, &je) {
				line, col = je.Position()
			}
			if line != c.line || col != c.col {
				t.Errorf("%v: at %d:%d, want %d:%d", err, line, col, c.line, c.col)
			}
			if strings.HasPrefix(err.Error(), "json: json: ") {
				t.Errorf("doubled prefix: %v", err)
			}
		})
	}
	// Compressed: the place in the decompressed text is no line of the file.
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(`{"meta": "ALIRModel", "spec_version": "2", "model": []}`))
	zw.Close()
	_, err := DecodeJSON(b.Bytes())
	var je *JSONError
	if !errors.As(err, &je) || je.Line != 0 || je.Offset != 38 {
		t.Errorf("gzip: %#v", err)
	}
}

func TestRowErrorPlaces(t *testing.T) {
	for _, c := range []struct {
		text      string
		line, col int
		msg       string
	}{
		{"1 2\n\n 3\tq\n", 3, 4, `line 3: bad number "q"`},
		{"1 2\n3\n", 2, 2, "line 2: 1 values, earlier lines have 2"},
		{"1\n2  3 4\n", 2, 4, "line 2: 3 values, earlier lines have 1"},
	} {
		_, _, _, err := ReadRows(strings.NewReader(c.text))
		var re *RowError
		if !errors.As(err, &re) || err.Error() != c.msg || re.Line != c.line || re.Col != c.col {
			t.Errorf("%q: %v at %+v, want %q at %d:%d", c.text, err, re, c.msg, c.line, c.col)
		}
	}
}
