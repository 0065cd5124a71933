package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/npy"
)

const conformance = "../../../shared/conformance/alir"

// run runs otir-run in-process with args (after the program name).
func run(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	app := newApp(strings.NewReader(stdin), &out, &errb)
	full, err := reorderArgs(append([]string{"otir-run"}, args...), app)
	if err == nil {
		err = app.Run(full)
	}
	return out.String(), errb.String(), err
}

func needConformance(t *testing.T, dir string) string {
	t.Helper()
	d := filepath.Join(conformance, dir)
	if _, err := os.Stat(d); err != nil {
		t.Skipf("conformance data not found: %v", err)
	}
	return d
}

func TestRunConformanceText(t *testing.T) {
	for _, c := range []struct{ dir, model string }{
		{"alir-v2-mixed", "model.json.gz"},
		{"dais-v1-example", "model.bin"},
	} {
		t.Run(c.dir, func(t *testing.T) {
			d := needConformance(t, c.dir)
			want, _ := os.ReadFile(filepath.Join(d, "expected.txt"))
			model, in := filepath.Join(d, c.model), filepath.Join(d, "inputs.txt")
			// Options after the program, output to stdout.
			out, _, err := run(t, "", model, "--input", in, "--output", "-")
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Fatal("stdout differs from expected.txt")
			}
			// Input from stdin, output to a file, options first.
			stdin, _ := os.ReadFile(in)
			path := filepath.Join(t.TempDir(), "y.txt")
			if _, _, err := run(t, string(stdin), "-o", path, "-i", "-", "-j", "2", model); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
				t.Fatal("output file differs from expected.txt")
			}
			// The exact evaluator agrees.
			if out, _, err := run(t, "", "--exact", model, "--input", in); err != nil || out != string(want) {
				t.Fatalf("--exact: %v", err)
			}
		})
	}
}

func TestRunNpy(t *testing.T) {
	d := needConformance(t, "dais-v1-example")
	model := filepath.Join(d, "model.bin")
	f, _ := os.Open(filepath.Join(d, "inputs.txt"))
	vals, rows, cols, err := alir.ReadRows(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	x, y := filepath.Join(dir, "x.npy"), filepath.Join(dir, "y.npy")
	xf, _ := os.Create(x)
	if err := npy.Write(xf, []int{rows, cols}, vals); err != nil {
		t.Fatal(err)
	}
	xf.Close()
	if _, _, err := run(t, "", model, "--input", x, "--output", y); err != nil {
		t.Fatal(err)
	}
	yf, _ := os.Open(y)
	a, err := npy.Read(yf)
	yf.Close()
	if err != nil {
		t.Fatal(err)
	}
	ef, _ := os.Open(filepath.Join(d, "expected.txt"))
	want, wrows, wcols, _ := alir.ReadRows(ef)
	ef.Close()
	if !reflect.DeepEqual(a.Shape, []int{wrows, wcols}) || !reflect.DeepEqual(a.Data, want) {
		t.Fatalf("npy output: shape %v, values differ from expected.txt", a.Shape)
	}
}

func TestInfo(t *testing.T) {
	d := needConformance(t, "alir-v2-mixed")
	model := filepath.Join(d, "model.json.gz")
	out, _, err := run(t, "", "info", model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"(json)", "inputs:      64", "outputs:     16", "operations:  581", "lookup", "cost:", "latency:", "cost model:"} {
		if !strings.Contains(out, want) {
			t.Errorf("info lacks %q:\n%s", want, out)
		}
	}
	out, _, err = run(t, "", "info", "--json", model)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Format   string
		Inputs   int
		OpCounts []struct {
			Opcode int
			Count  int
		} `json:"op_counts"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("info --json: %v\n%s", err, out)
	}
	total := 0
	for _, c := range v.OpCounts {
		total += c.Count
	}
	if v.Format != "json" || v.Inputs != 64 || total != 581 {
		t.Errorf("info --json: %+v", v)
	}
}

// TestInfoAreaBound: a program larger than maxEstimateOps gets no area
// estimate (building its design could take gigabytes), said on the line,
// and null in JSON.
func TestInfoAreaBound(t *testing.T) {
	d := needConformance(t, "alir-v2-mixed")
	model := filepath.Join(d, "model.json.gz")
	defer func(n int) { maxEstimateOps = n }(maxEstimateOps)
	maxEstimateOps = 580
	out, _, err := run(t, "", "info", model)
	if err != nil {
		t.Fatal(err)
	}
	if want := "area:        not estimated: 581 operations, more than info estimates (580)\n"; !strings.Contains(out, want) {
		t.Errorf("info lacks %q:\n%s", want, out)
	}
	out, _, err = run(t, "", "info", "--json", model)
	if err != nil || !strings.Contains(out, `"area": null`) {
		t.Errorf("info --json: %v\n%s", err, out)
	}
	maxEstimateOps = 581
	if out, _, err = run(t, "", "info", model); err != nil || !strings.Contains(out, "area:        ~") {
		t.Errorf("info at the bound: %v\n%s", err, out)
	}
}

func TestConvert(t *testing.T) {
	d := needConformance(t, "dais-v1-example")
	model := filepath.Join(d, "model.bin")
	dir := t.TempDir()
	js := filepath.Join(dir, "m.json.gz")
	if _, _, err := run(t, "", "convert", model, js); err != nil {
		t.Fatal(err)
	}
	back := filepath.Join(dir, "m.dais")
	if _, _, err := run(t, "", "convert", "--to", "dais-v1", js, back); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(back)
	if !bytes.Equal(a, b) {
		t.Error("DAIS v1 -> JSON -> DAIS v1 changed the file")
	}
	want, _ := os.ReadFile(filepath.Join(d, "expected.txt"))
	out, _, err := run(t, "", js, "--input", filepath.Join(d, "inputs.txt"))
	if err != nil || out != string(want) {
		t.Errorf("converted program: %v", err)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "g.bin")
	os.WriteFile(garbage, []byte{1, 2, 3, 4, 5}, 0o644)
	trunc := filepath.Join(dir, "t.json.gz")
	if d := filepath.Join(conformance, "alir-v2-mixed", "model.json.gz"); true {
		if b, err := os.ReadFile(d); err == nil {
			os.WriteFile(trunc, b[:len(b)/2], 0o644)
		} else {
			os.WriteFile(trunc, []byte("\x1f\x8b\x08\x00"), 0o644)
		}
	}
	txt := filepath.Join(dir, "x.txt")
	os.WriteFile(txt, []byte("1 2\n3\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"missing.json", "--input", txt}, "no such file"},
		{[]string{garbage, "--input", txt}, "not a program"},
		{[]string{trunc, "--input", txt}, "gzip"},
		{[]string{"info", "--format", "yaml", garbage}, "unknown format"},
		{[]string{"info"}, "want one program argument"},
		{[]string{garbage}, "--input is required"},
	}
	for _, c := range cases {
		_, _, err := run(t, "", c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want an error containing %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(conformance, "alir-v2-mixed")); err == nil {
		model := filepath.Join(conformance, "alir-v2-mixed", "model.json.gz")
		if _, _, err := run(t, "", model, "--input", txt); err == nil || !strings.Contains(err.Error(), "x.txt:2:2: error: 1 values, earlier lines have 2") {
			t.Errorf("ragged input: %v", err)
		}
		one := filepath.Join(dir, "one.txt")
		os.WriteFile(one, []byte("1 2 3\n"), 0o644)
		if _, _, err := run(t, "", model, "--input", one); err == nil || !strings.Contains(err.Error(), "one.txt: error: 3 values per line, the program has 64 inputs") {
			t.Errorf("wrong column count: %v", err)
		}
	}
}

func TestReorderArgs(t *testing.T) {
	cases := [][2][]string{
		{{"p", "m.json", "--input", "x", "-o", "-"}, {"p", "--input", "x", "-o", "-", "--", "m.json"}},
		{{"p", "info", "m.json", "--json"}, {"p", "info", "--json", "--", "m.json"}},
		{{"p", "--format=json", "m", "--exact"}, {"p", "--format=json", "--exact", "--", "m"}},
		{{"p", "m", "--", "-weird"}, {"p", "--", "m", "-weird"}},
		{{"p"}, {"p"}},
	}
	app := newApp(nil, nil, nil)
	for _, c := range cases {
		if got, err := reorderArgs(c[0], app); err != nil || !reflect.DeepEqual(got, c[1]) {
			t.Errorf("reorderArgs(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}
