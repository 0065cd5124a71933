package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/readlimit"
)

func isNpy(path string) bool { return strings.HasSuffix(strings.ToLower(path), ".npy") }

// readSamples reads samples of nIn values from path (.npy, or text; "-" is
// stdin as text), at most max bytes of it. It returns the values row-major
// and the number of samples.
func readSamples(path string, stdin io.Reader, nIn int, max int64) ([]float64, int, error) {
	vals, n, err := readSamplesFrom(path, stdin, nIn, max)
	return vals, n, fileErr(path, "<stdin>", err)
}

func readSamplesFrom(path string, stdin io.Reader, nIn int, max int64) ([]float64, int, error) {
	var r io.Reader = stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return nil, 0, err
		}
		defer f.Close()
		r = f
	}
	r = readlimit.Reader(r, max, readlimit.Flag)
	if isNpy(path) {
		a, err := npy.Read(r)
		if err != nil {
			return nil, 0, err
		}
		n, err := npyRows(a, nIn)
		if err != nil {
			return nil, 0, err
		}
		return a.Data, n, nil
	}
	vals, rows, cols, err := alir.ReadRows(r)
	if err != nil {
		return nil, 0, err
	}
	if rows > 0 && cols != nIn {
		return nil, 0, fmt.Errorf("%d values per line, the program has %d inputs", cols, nIn)
	}
	return vals, rows, nil
}

// npyRows interprets an array as samples of nIn values: shape (n, nIn), or
// (nIn,) for one sample (also (n,) when nIn is 1) or a scalar when nIn is 1;
// or (n, d1, d2, ...) with d1·d2·... = nIn, n samples each flattened in
// row-major order (an nn graph's batch [N, ...shape], whose circuit takes
// the argument's elements in that order).
func npyRows(a *npy.Float64Array, nIn int) (int, error) {
	switch {
	case len(a.Shape) == 0:
		if nIn == 1 {
			return 1, nil
		}
	case len(a.Shape) == 1:
		if nIn == 1 {
			return a.Shape[0], nil
		}
		if a.Shape[0] == nIn {
			return 1, nil
		}
	default:
		per := 1
		for _, d := range a.Shape[1:] {
			per *= d
		}
		if per == nIn {
			return a.Shape[0], nil
		}
	}
	return 0, fmt.Errorf("array of shape %v does not hold samples of %d inputs (want (n, %d), (%d,), or (n, ...) of %d values a sample)", a.Shape, nIn, nIn, nIn, nIn)
}

// writeSamples writes n samples of nOut values to path (.npy of shape
// (n, nOut), or text; "-" is stdout as text). A file is replaced only
// when it is written completely (outfile.Write).
func writeSamples(path string, stdout io.Writer, out []float64, n, nOut int) error {
	write := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		var err error
		if isNpy(path) {
			err = npy.Write(bw, []int{n, nOut}, out)
		} else {
			err = alir.WriteRows(bw, out, nOut)
		}
		if err == nil {
			err = bw.Flush()
		}
		return err
	}
	if path == "-" {
		return fileErr(path, "<stdout>", write(stdout))
	}
	return fileErr(path, "", outfile.Write(path, write))
}
