package nncircuit

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/pareto-*.svg from bench/pareto.tsv")

func TestFront(t *testing.T) {
	pts := []Point{
		{Tool: "otir", Option: "a", Adders: 100, Depth: 10},
		{Tool: "otir", Option: "b", Adders: 90, Depth: 20},
		{Tool: "otir", Option: "c", Adders: 95, Depth: 25},  // beaten by b
		{Tool: "otir", Option: "d", Adders: 100, Depth: 12}, // beaten by a
		{Tool: "otir", Option: "e", Adders: 80, Depth: 40},
		{Tool: "otir", Option: "f", Adders: 80, Depth: 40}, // ties e: neither beats the other
	}
	var got []string
	for _, p := range Front(pts) {
		got = append(got, p.Option)
	}
	if want := []string{"a", "b", "e", "f"}; !slices.Equal(got, want) {
		t.Errorf("Front = %v, want %v", got, want)
	}
}

func TestReadPointsErrors(t *testing.T) {
	for _, c := range []struct{ in, msg string }{
		{"net\ttool\n", "header"},
		{"network\ttool\toption\tadders\tdepth\tluts\nx\totir\tm=1\t3\n", "4 fields"},
		{"network\ttool\toption\tadders\tdepth\tluts\nx\totir\tm=1\tmany\t3\t-\n", "invalid syntax"},
	} {
		if _, err := ReadPoints(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("ReadPoints(%q) = %v, want an error with %q", c.in, err, c.msg)
		}
	}
}

// TestParetoPictures draws docs/pareto-NETWORK.svg for every network of
// bench/pareto.tsv (written by bench/pareto.sh) and checks the committed
// pictures are those drawings (-update rewrites them).
func TestParetoPictures(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "pareto.tsv"))
	if err != nil {
		t.Skipf("no bench/pareto.tsv: %v", err)
	}
	defer f.Close()
	pts, err := ReadPoints(f)
	if err != nil {
		t.Fatal(err)
	}
	byNet := map[string][]Point{}
	var nets []string
	for _, p := range pts {
		if byNet[p.Network] == nil {
			nets = append(nets, p.Network)
		}
		byNet[p.Network] = append(byNet[p.Network], p)
	}
	for _, n := range nets {
		var b bytes.Buffer
		if err := WriteParetoSVG(&b, n+": adders against adder depth", byNet[n]); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("..", "..", "docs", "pareto-"+n+".svg")
		if *update {
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		old, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(old, b.Bytes()) {
			t.Errorf("%s is not the drawing of bench/pareto.tsv (go test ./bench/nncircuit -run ParetoPictures -update)", path)
		}
	}
}
