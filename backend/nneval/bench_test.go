package nneval

import (
	"path/filepath"
	"testing"
)

// BenchmarkEvalGolden evaluates every golden case once per iteration: 71
// small graphs, where looking up each node's entry is a visible share of
// the work (issue 30's op tables).
func BenchmarkEvalGolden(b *testing.B) {
	type evalCase struct {
		name string
		run  func() error
	}
	var cases []evalCase
	for _, name := range goldenCases(b) {
		g, _, ins, p := readCase(b, filepath.Join(goldenDir, name))
		cases = append(cases, evalCase{name, func() error { _, err := Eval(g, ins, p, Options{}); return err }})
	}
	for b.Loop() {
		for _, c := range cases {
			if err := c.run(); err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
		}
	}
}
