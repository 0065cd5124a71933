package rtl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// alkaidLayout is one program's ports as alkaid declares them: lane j of
// model_inp (model_out) is kif = (k, i, f), k+i+f bits, k = 1 signed,
// packed from the least significant bit. testdata/alkaid/layout.json is
// written by alkaid itself (testdata/alkaid/layout.py).
type alkaidLayout struct {
	Inputs, Outputs [][3]int
}

func (l alkaidLayout) width(lanes [][3]int, j int) int {
	return max(lanes[j][0]+lanes[j][1]+lanes[j][2], 0)
}

// offsets returns each lane's offset and the port's width.
func (l alkaidLayout) offsets(lanes [][3]int) ([]int, int) {
	off, w := make([]int, len(lanes)), 0
	for j := range lanes {
		off[j] = w
		w += l.width(lanes, j)
	}
	return off, w
}

// TestAlkaidPortConvention: every alkaid conformance program's design has
// exactly alkaid's ports (the lanes alkaid's own CombLogic gives), and,
// simulated in Icarus Verilog combinationally and pipelined with rows
// packed and unpacked by alkaid's layout alone (not by this package's
// header or EncodeInputs/DecodeOutputs), gives alkaid's expected.txt bit
// for bit: alkaid's testbenches carry over.
func TestAlkaidPortConvention(t *testing.T) {
	b, err := os.ReadFile("testdata/alkaid/layout.json")
	if err != nil {
		t.Fatal(err)
	}
	var layouts map[string]alkaidLayout
	if err := json.Unmarshal(b, &layouts); err != nil {
		t.Fatal(err)
	}
	if len(layouts) != 4 {
		t.Fatalf("layout.json has %d programs, want 4", len(layouts))
	}
	for name, lay := range layouts {
		dir, model := filepath.Split(name)
		dir = filepath.Clean(dir)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, in := readConformance(t, dir, model, 300)
			want := readExpected(t, dir, len(in)/p.NumInputs(), p.NumOutputs())
			cuts := []float64{0}
			if lat := maxLatency(p); lat > 0 {
				cuts = append(cuts, lat/3)
			}
			for _, cut := range cuts {
				d, err := Build(p, Options{Name: "conf", LatencyCutoff: cut})
				if err != nil {
					t.Fatal(err)
				}
				checkLanes(t, "input", d.Inputs, d.InWidth, lay, lay.Inputs)
				checkLanes(t, "output", d.Outputs, d.OutWidth, lay, lay.Outputs)
				if _, ok := lookTool("iverilog"); !ok {
					continue // the ports are checked; the simulation needs Icarus
				}
				got := simAlkaid(t, d, p, lay, in)
				if len(got) != len(want) {
					t.Fatalf("latency %d: %d rows out of the simulator, want %d", d.Latency, len(got), len(want))
				}
				for r := range want {
					for j := range want[r] {
						if math.Float64bits(got[r][j]) != math.Float64bits(want[r][j]) && !(got[r][j] == 0 && want[r][j] == 0) {
							t.Fatalf("latency %d: row %d output %d: %v, alkaid's expected.txt %v", d.Latency, r, j, got[r][j], want[r][j])
						}
					}
				}
			}
		})
	}
}

// checkLanes compares a port's lanes with alkaid's.
func checkLanes(t *testing.T, what string, lanes []Lane, width int, lay alkaidLayout, kifs [][3]int) {
	t.Helper()
	off, w := lay.offsets(kifs)
	if len(lanes) != len(kifs) || width != w {
		t.Fatalf("%s port: %d lanes, %d bits; alkaid: %d lanes, %d bits", what, len(lanes), width, len(kifs), w)
	}
	for j, l := range lanes {
		k := kifs[j]
		if l.Offset != off[j] || l.Width != lay.width(kifs, j) || l.Width > 0 && (l.Signed != (k[0] == 1) || l.Frac != k[2]) {
			t.Errorf("%s lane %d: %+v; alkaid: offset %d, kif %v", what, j, l, off[j], k)
		}
	}
}

// simAlkaid runs d in Icarus on rows packed by alkaid's layout: lane j is
// wrap(floor(x·2^(shift_j+f))) in k+i+f bits; it unpacks each output lane
// as a k+i+f-bit raw value times 2^-f.
func simAlkaid(t *testing.T, d *Design, p *alir.Program, lay alkaidLayout, in []float64) [][]float64 {
	t.Helper()
	inOff, inW := lay.offsets(lay.Inputs)
	var rows bytes.Buffer
	nIn := len(lay.Inputs)
	for r := 0; r+nIn <= len(in); r += nIn {
		word := new(big.Int)
		for j, kif := range lay.Inputs {
			w := lay.width(lay.Inputs, j)
			if w == 0 {
				continue
			}
			x := math.Floor(math.Ldexp(in[r+j], int(p.InShifts[j])+kif[2]))
			v, _ := new(big.Float).SetFloat64(x).Int(nil)
			mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
			word.Or(word, new(big.Int).Lsh(v.And(v, mask), uint(inOff[j])))
		}
		fmt.Fprintf(&rows, "%0*x\n", (max(inW, 1)+3)/4, word)
	}
	out := runIverilog(t, d, rows.Bytes())
	outOff, _ := lay.offsets(lay.Outputs)
	var res [][]float64
	for _, line := range outputLines(out) {
		word, ok := new(big.Int).SetString(line, 16)
		if !ok {
			t.Fatalf("simulator output %q is not hexadecimal", line)
		}
		row := make([]float64, len(lay.Outputs))
		for j, kif := range lay.Outputs {
			w := lay.width(lay.Outputs, j)
			raw := new(big.Int).Rsh(word, uint(outOff[j]))
			raw.And(raw, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1)))
			if kif[0] == 1 && w > 0 && raw.Bit(w-1) == 1 {
				raw.Sub(raw, new(big.Int).Lsh(big.NewInt(1), uint(w)))
			}
			f, _ := new(big.Float).SetInt(raw).Float64()
			row[j] = math.Ldexp(f, -kif[2])
		}
		res = append(res, row)
	}
	return res
}

// readExpected reads the first n rows of a conformance case's expected.txt.
func readExpected(t *testing.T, dir string, n, nOut int) [][]float64 {
	t.Helper()
	f, err := os.Open(filepath.Join(conformanceDir, dir, "expected.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	vals, rows, cols, err := alir.ReadRows(f)
	if err != nil {
		t.Fatalf("expected.txt: %v", err)
	}
	if rows < n || cols != nOut {
		t.Fatalf("expected.txt has %d rows of %d values, want %d of %d", rows, cols, n, nOut)
	}
	out := make([][]float64, n)
	for r := range out {
		out[r] = vals[r*cols : (r+1)*cols]
	}
	return out
}
