// Command cmvm-solve solves constant matrices with lower/cmvm alone, for
// timing the solver in a process of its own (bench/cmvm-speed.sh) and for
// checking that a change to the solver leaves its graphs unchanged.
//
//	cmvm-solve [-depth D] [-cpuprofile F] RxC ...
//	                                solve bench/cmvm's seed-0 int8 matrix of
//	                                R inputs and C outputs with lower-tiles'
//	                                options and print its statistics
//	cmvm-solve -hashes              print a hash of every graph of the check
//	                                set (the Table 2 sets and the int8
//	                                matrices below), one line each
//
// Every line ends with the SHA-256 of the graph (every op, output, interval,
// depth and cost, as JSON): run the old and the new solver and compare the
// outputs with cmp.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	cmvmbench "github.com/otir-dev/otir/bench/cmvm"
	"github.com/otir-dev/otir/lower/cmvm"
)

func main() {
	hashes := flag.Bool("hashes", false, "print the hash of every graph of the check set")
	depth := flag.Int("depth", 0, "max-adder-depth: 0 unconstrained, -1 minimal")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the solves to `file`")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: cmvm-solve [-depth D] [-cpuprofile F] RxC ... | cmvm-solve -hashes")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *hashes == (flag.NArg() > 0) {
		flag.Usage()
		os.Exit(2)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "cmvm-solve: error: %v\n", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *hashes {
		checkSet()
		return
	}
	for _, s := range flag.Args() {
		var r, c int
		if _, err := fmt.Sscanf(s, "%dx%d", &r, &c); err != nil || r < 1 || c < 1 {
			fmt.Fprintf(os.Stderr, "cmvm-solve: error: %q is not RxC\n", s)
			os.Exit(2)
		}
		solve(fmt.Sprintf("int8 %dx%d depth %d", r, c, *depth), int8Problem(r, c), tilesOptions(*depth))
	}
}

// int8Problem is bench/cmvm's seed-0 int8 matrix of r inputs and c
// outputs, y = x @ W, with int8 inputs: what lower-tiles hands the solver.
func int8Problem(r, c int) cmvm.Problem {
	w := cmvmbench.Matrix(cmvmbench.Int8, r, c, 0)
	p := cmvm.Problem{Matrix: w, Transposed: true, Inputs: make([]cmvm.Interval, r)}
	for j := range p.Inputs {
		p.Inputs[j] = cmvm.Interval{Lo: -128, Hi: 127}
	}
	return p
}

// tilesOptions are the options lower-tiles solves with by default (its
// max-adder-depth set to depth).
func tilesOptions(depth int) cmvm.Options {
	return cmvm.Options{Restarts: -1, CarrySize: -1, AdderSize: -1, MaxDepth: depth}
}

// checkSet hashes the graphs of the Table 2 sets (8x8 and 16x16, seeds
// 0..99, default options with their randomised restarts, unconstrained and
// at minimal depth; 64x64 at minimal depth, seeds 0..4) and of the int8
// matrices 64..256 square, 256x64 and 1024x64 (transposed) with
// lower-tiles' options.
func checkSet() {
	for _, c := range []struct {
		n, seeds int
		opt      cmvm.Options
	}{
		{8, 100, cmvm.Options{}}, {16, 100, cmvm.Options{}},
		{8, 100, cmvm.Options{MaxDepth: cmvm.DepthMinimal}}, {16, 100, cmvm.Options{MaxDepth: cmvm.DepthMinimal}},
		{64, 5, cmvm.Options{MaxDepth: cmvm.DepthMinimal}},
	} {
		for s := range c.seeds {
			w := cmvmbench.Matrix(cmvmbench.Table2, c.n, c.n, uint64(s))
			p := cmvm.Problem{Matrix: w, Inputs: make([]cmvm.Interval, c.n)}
			for j := range p.Inputs {
				p.Inputs[j] = cmvm.Interval{Lo: -128, Hi: 127}
			}
			solve(fmt.Sprintf("t2 %dx%d seed %d depth %d", c.n, c.n, s, c.opt.MaxDepth), p, c.opt)
		}
	}
	for _, c := range []struct{ r, c, depth int }{
		{64, 64, 0}, {64, 64, -1}, {128, 128, 0}, {128, 128, -1}, {256, 256, 0},
		{256, 64, 0}, {64, 256, 0}, {1024, 64, 0},
	} {
		solve(fmt.Sprintf("int8 %dx%d depth %d", c.r, c.c, c.depth), int8Problem(c.r, c.c), tilesOptions(c.depth))
	}
}

// solve solves p and prints one line: the name, the graph's statistics and
// its hash.
func solve(name string, p cmvm.Problem, opt cmvm.Options) {
	g, err := cmvm.Solve(p, opt)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cmvm-solve: %s: error: %v\n", name, err)
		os.Exit(1)
	}
	js, err := json.Marshal(g)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cmvm-solve: %s: error: %v\n", name, err)
		os.Exit(1)
	}
	s := g.Stats()
	fmt.Printf("%s: %d adders (%d neg) depth %d cost %d sha256 %x\n", name, s.Adders+s.Negations, s.Negations, s.Depth, s.Cost, sha256.Sum256(js))
}
