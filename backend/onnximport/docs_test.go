package onnximport

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocsOperatorTable: the operator table of docs/nn.md ("Importing ONNX
// models", the table headed "ONNX operator") names every operator of
// operators and qonnxOperators, and no other, in its first column.
func TestDocsOperatorTable(t *testing.T) {
	data, err := os.ReadFile("../../docs/nn.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	start := strings.Index(text, "| ONNX operator | opsets |")
	if start < 0 {
		t.Fatal("docs/nn.md has no table headed '| ONNX operator | opsets |'")
	}
	name := regexp.MustCompile("`([A-Za-z]+)`")
	var documented []string
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		first := strings.Split(line, "|")[1]
		for _, m := range name.FindAllStringSubmatch(first, -1) {
			documented = append(documented, m[1])
		}
	}
	slices.Sort(documented)
	want := append(Operators(), QONNXOperators()...)
	slices.Sort(want)
	for _, op := range want {
		if _, ok := slices.BinarySearch(documented, op); !ok {
			t.Errorf("operator %s is not in docs/nn.md's operator table", op)
		}
	}
	for i, op := range documented {
		if _, ok := slices.BinarySearch(want, op); !ok {
			t.Errorf("docs/nn.md's operator table names %s, which the importer does not read", op)
		}
		if i > 0 && documented[i-1] == op {
			t.Errorf("docs/nn.md's operator table names %s twice", op)
		}
	}
}
