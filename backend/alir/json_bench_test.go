package alir

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWriteJSON1M writes a 1,000,000-op shift-and-add program as ALIR
// JSON to a file (EncodeJSON and the write): issue 15's "1M scalar
// operations written as ALIR JSON in at most 1 s".
func BenchmarkWriteJSON1M(b *testing.B) {
	p := RandomShiftAdd(ShiftAddConfig{Inputs: 1000, Ops: 1000000, Outputs: 1000, Seed: 1})
	path := filepath.Join(b.TempDir(), "p.json")
	b.ReportAllocs()
	for b.Loop() {
		data, err := EncodeJSON(p)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o666); err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
	}
	b.ReportMetric(float64(len(p.Ops)), "ops")
}
