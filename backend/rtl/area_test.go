package rtl

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// calibrationRow is one design of testdata/area/calibration.tsv, measured
// by yosys 0.23 synth_xilinx -flatten (bench/lut-model.sh).
type calibrationRow struct {
	name             string
	cutoff           float64
	luts, carry, ffs int
}

func readCalibration(t *testing.T) []calibrationRow {
	t.Helper()
	f, err := os.Open("testdata/area/calibration.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []calibrationRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if fs[0] == "name" {
			continue
		}
		if len(fs) != 5 {
			t.Fatalf("calibration.tsv: %q has %d fields, want 5", sc.Text(), len(fs))
		}
		r := calibrationRow{name: fs[0]}
		var errs [4]error
		r.cutoff, errs[0] = strconv.ParseFloat(fs[1], 64)
		r.luts, errs[1] = strconv.Atoi(fs[2])
		r.carry, errs[2] = strconv.Atoi(fs[3])
		r.ffs, errs[3] = strconv.Atoi(fs[4])
		for _, err := range errs {
			if err != nil {
				t.Fatalf("calibration.tsv: %q: %v", sc.Text(), err)
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// Tolerances of TestEstimateCalibration, relative errors against yosys:
// the designs of 1000 LUTs or more (the ones whose area matters) on
// average and each; every design, however small; carry cells on average
// over the large designs; flip-flops each.
const (
	largeDesign    = 1000
	meanLUTError   = 0.05
	maxLargeError  = 0.30
	maxLUTError    = 0.45
	meanCarryError = 0.10
	maxFFError     = 0.05
)

// TestEstimateCalibration rebuilds every calibration design and compares
// Design.Estimate with yosys's figures: flip-flops exactly, LUTs and carry
// cells within the tolerances.
func TestEstimateCalibration(t *testing.T) {
	rows := readCalibration(t)
	var sum, carrySum float64
	large := 0
	rel := func(est, got int) float64 { return math.Abs(float64(est-got)) / math.Max(float64(got), 1) }
	for _, r := range rows {
		p, _, err := alir.ReadFile(filepath.Join("testdata", "area", r.name+".json.gz"), alir.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		d, err := Build(p, Options{Name: "d", LatencyCutoff: r.cutoff})
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		e, f := d.Estimate(), d.features()
		le := rel(e.LUTs, r.luts)
		t.Logf("%s\t%g\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.3f", r.name, r.cutoff, r.luts, e.LUTs, r.carry, e.Carry, r.ffs,
			f.adderBits, f.constBits, f.cmpBits, f.muxBits, f.zeroBits, f.gateBits, f.reduceIns, f.lookupLUTs, le)
		limit := maxLUTError
		if r.luts >= largeDesign {
			limit = maxLargeError
			sum += le
			carrySum += rel(e.Carry, r.carry)
			large++
		}
		if le > limit {
			t.Errorf("%s (cutoff %g): %d LUTs estimated, yosys %d (%.1f %%)", r.name, r.cutoff, e.LUTs, r.luts, 100*le)
		}
		if fe := rel(e.FlipFlops, r.ffs); fe > maxFFError {
			t.Errorf("%s (cutoff %g): %d flip-flops estimated, yosys %d", r.name, r.cutoff, e.FlipFlops, r.ffs)
		}
	}
	if large < 20 {
		t.Fatalf("%d calibration designs of %d LUTs or more, want at least 20", large, largeDesign)
	}
	if mean := sum / float64(large); mean > meanLUTError {
		t.Errorf("mean LUT error %.1f %% over the large designs, want at most %.0f %%", 100*mean, 100*meanLUTError)
	}
	if mean := carrySum / float64(large); mean > meanCarryError {
		t.Errorf("mean carry error %.1f %% over the large designs, want at most %.0f %%", 100*mean, 100*meanCarryError)
	}
}

// BenchmarkEstimate: building the jet tagger's design (5,000 ops, 62,000
// LUTs by yosys, which takes minutes) and estimating its area.
func BenchmarkEstimate(b *testing.B) {
	p, _, err := alir.ReadFile(filepath.Join("testdata", "area", "nn-jet-min.json.gz"), alir.FormatAuto)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		d, err := Build(p, Options{Name: "d"})
		if err != nil {
			b.Fatal(err)
		}
		_ = d.Estimate()
	}
}
