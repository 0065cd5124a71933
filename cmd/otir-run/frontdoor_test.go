package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The invalid inputs of TestEveryModeVerifies, each with what otir-run must
// print: the verifier's diagnostic, located, with its source line and caret
// for text.
var invalidInputs = []struct {
	name, text, want string
}{
	{"graph.mlir", `nn.graph @g(%a: tensor<2x3xf64>, %b: tensor<4x5xf64>) -> tensor<2x5xf64> {
  %0 = nn.matmul %a, %b : (tensor<2x3xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  nn.return %0 : tensor<2x5xf64>
}
`, `graph.mlir:2:3: error: 'nn.matmul' op inner dimensions differ: 'tensor<2x3xf64>' has 3 columns, 'tensor<4x5xf64>' has 4 rows
  %0 = nn.matmul %a, %b : (tensor<2x3xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  ^
`},
	{"kernel.otir", `otir.kernel @k(%a: !otir.tile<2xi8, #global>, %s: i8) attributes {grid = [1]} {
  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<4xi8, #private>
  otir.return
}
`, `kernel.otir:2:3: error: 'otir.load' op result shape 4 does not match the source shape 2
  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<4xi8, #private>
  ^
`},
	// Operation 3 reads operation 5, which comes later.
	{"program.json", `{"model":[[3,2],[0,0,0],[5,6],[0,0],[false,false],[[0,-1,-1,0,[-128.0,127.0,1.0],0.0,0.0],[1,-1,-1,0,[-128.0,127.0,1.0],0.0,0.0],[2,-1,-1,0,[-128.0,127.0,1.0],0.0,0.0],[0,5,0,0,[-256.0,254.0,1.0],1.0,1.0],[1,2,0,0,[-256.0,254.0,1.0],1.0,1.0],[3,-1,3,0,[-128.0,127.0,1.0],1.0,0.0],[4,-1,3,0,[-128.0,127.0,1.0],1.0,0.0]],-1,-1],"meta":"ALIRModel","spec_version":2}`,
		"program.json: error: op 3 (add): id1 5 does not refer to an earlier operation\n"},
}

// TestEveryModeVerifies walks every mode of otir-run with an invalid graph,
// an invalid kernel and an invalid program: each goes through the front
// door first, so the verifier's (or the program validation's) located
// diagnostic is all that is printed, the exit status is 1, and nothing is
// run or written. The other files a mode names (inputs, payload) do not
// exist: they are never read.
func TestEveryModeVerifies(t *testing.T) {
	modes := []struct {
		name string
		args func(f, d string) []string
		text bool // applies to OTIR text only (its flags are usage errors for a program)
	}{
		{"run", func(f, d string) []string { return []string{f, "--input", d + "/x.npy"} }, false},
		{"run, every graph flag", func(f, d string) []string {
			return []string{f, "--params", d + "/p.npz", "--input", d + "/x.npy", "--output", d + "/y.npy", "--entry", "@g", "--all-values", d + "/all"}
		}, true},
		{"kernel run", func(f, d string) []string {
			return []string{f, "--arg", "s=1", "--print", "--out-dir", d + "/out", "--check-races", "--max-steps", "10"}
		}, true},
		{"quant-error", func(f, d string) []string {
			return []string{"quant-error", f, "--params", d + "/p.npz", "--input", d + "/x.npy", "--per-tensor"}
		}, false},
		{"info", func(f, d string) []string { return []string{"info", f} }, false},
		{"info --json", func(f, d string) []string { return []string{"info", "--json", f} }, false},
		{"report", func(f, d string) []string { return []string{"report", f, "-o", d + "/r.html"} }, false},
		{"bench", func(f, d string) []string { return []string{"bench", f, "--input", d + "/x.txt", "--repeat", "1"} }, false},
		{"convert", func(f, d string) []string { return []string{"convert", f, d + "/o.json"} }, false},
		{"convert to Verilog", func(f, d string) []string {
			return []string{"convert", f, d + "/o.v", "--testbench", d + "/tb.v", "--rows", d + "/x.txt"}
		}, false},
		{"convert to VHDL", func(f, d string) []string { return []string{"convert", f, d + "/o.vhd"} }, false},
	}
	for _, in := range invalidInputs {
		for _, m := range modes {
			isText := !strings.HasSuffix(in.name, ".json")
			if m.text && !isText {
				continue
			}
			t.Run(in.name+"/"+m.name, func(t *testing.T) {
				d := t.TempDir()
				f := filepath.Join(d, in.name)
				if err := os.WriteFile(f, []byte(in.text), 0o644); err != nil {
					t.Fatal(err)
				}
				var out, errb bytes.Buffer
				code := mainCode(append([]string{"otir-run"}, m.args(f, d)...), strings.NewReader(""), &out, &errb)
				want := filepath.Join(d, in.want)
				if code != 1 || errb.String() != want || out.Len() != 0 {
					t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 1 and:\n%s", code, out.String(), errb.String(), want)
				}
				entries, _ := os.ReadDir(d)
				if len(entries) != 1 {
					t.Errorf("the run wrote files: %v", entries)
				}
			})
		}
	}
}
