package difftest

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/lower/daisopt"
	"github.com/otir-dev/otir/lower/tiles"
)

// maxExact bounds the random argument values: ALIR programs read and write
// float64 values, exact up to 2^53.
const maxExact = 1 << 53

// Report describes a successful check.
type Report struct {
	Samples, Inputs, Outputs, Ops int
	OptimizedOps                  int           // after dais-optimize
	Optimized                     *alir.Program // the program after dais-optimize
}

// Mismatch is a disagreement between the executor and the interpreter.
type Mismatch struct {
	Stage   string // "lower-tiles", "dais-optimize", "dais-rescale" or "dais-fuse-sums"
	Arg     string
	Element int
	Exec    float64
	ALIR    float64
	Inputs  []string // the arguments of the failing sample
}

func (m *Mismatch) Error() string {
	return fmt.Sprintf("%s: argument %%%s element %d: executor %v, ALIR %v (inputs %v)", m.Stage, m.Arg, m.Element, m.Exec, m.ALIR, m.Inputs)
}

// Check lowers kernel k (of a verified, promoted module m) and compares, on
// samples random argument sets, the reference executor with the lowered
// program as otir's ALIR interpreter runs it and as alkaid's interpreter
// computes it (runAlkaid); then the same for the program after
// dais-optimize, after dais-rescale, and after dais-fuse-sums. Every
// program must be portable (alir.Program.Portability).
func Check(m *ir.Module, k *ir.Operation, opts tiles.Options, samples int, seed uint64) (*Report, error) {
	prog, err := tiles.LowerKernel(k, opts)
	if err != nil {
		return nil, fmt.Errorf("lower-tiles: %w", err)
	}
	p, err := dais.ToALIR(prog)
	if err != nil {
		return nil, fmt.Errorf("ToALIR: %w", err)
	}
	params := exec.Params(k)
	byName := map[string]int{}
	for i, pa := range params {
		byName[pa.Name] = i
	}
	names := func(attr string) ([]int, error) {
		arr, _ := prog.Attr(attr).(*ir.ArrayAttr)
		if arr == nil {
			return nil, fmt.Errorf("program has no %s", attr)
		}
		var idx []int
		for _, e := range arr.Elems {
			s, _ := e.(*ir.StringAttr)
			i, ok := byName[s.Value]
			if s == nil || !ok {
				return nil, fmt.Errorf("%s names an unknown argument", attr)
			}
			idx = append(idx, i)
		}
		return idx, nil
	}
	ins, err := names("input_args")
	if err != nil {
		return nil, err
	}
	outs, err := names("output_args")
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	args := make([][]*exec.Buffer, samples)
	rows := make([]float64, 0, samples*p.NumInputs())
	for s := range args {
		args[s] = make([]*exec.Buffer, len(params))
		for i, pa := range params {
			if args[s][i], err = randomBuffer(rng, pa.Type); err != nil {
				return nil, err
			}
		}
		for _, i := range ins {
			b := args[s][i]
			for j := 0; j < b.Len(); j++ {
				rows = append(rows, b.FloatAt(j))
			}
		}
	}
	if len(rows) != samples*p.NumInputs() {
		return nil, fmt.Errorf("the program has %d inputs, the input arguments %d elements", p.NumInputs(), len(rows)/max(samples, 1))
	}
	isOut := map[int]bool{}
	for _, i := range outs {
		isOut[i] = true
	}
	// The executor's results: the final contents of the output arguments.
	want := make([]float64, 0, samples*p.NumOutputs())
	for s := range args {
		res, err := exec.Run(m, ir.KernelName(k), args[s], exec.Options{SkipVerify: s > 0})
		if err != nil {
			return nil, fmt.Errorf("executor: %w", err)
		}
		for _, i := range outs {
			fin := res.Args[i]
			for j := 0; j < fin.Len(); j++ {
				want = append(want, fin.FloatAt(j))
			}
		}
		// An argument the program does not write must end as it began.
		for i, pa := range params {
			if pa.Global && !isOut[i] && !res.Args[i].Equal(args[s][i]) {
				return nil, fmt.Errorf("the executor changes %%%s, which the program does not output", pa.Name)
			}
		}
	}
	if len(want) != samples*p.NumOutputs() {
		return nil, fmt.Errorf("the program has %d outputs, the written arguments %d elements", p.NumOutputs(), len(want)/max(samples, 1))
	}
	mismatch := func(stage string, k int, got float64) error {
		nOut := p.NumOutputs()
		s, o := k/nOut, k%nOut
		pos := 0
		for _, i := range outs {
			n := args[s][i].Len()
			if o < pos+n {
				return &Mismatch{Stage: stage, Arg: params[i].Name, Element: o - pos, Exec: want[k], ALIR: got, Inputs: describe(params, args[s])}
			}
			pos += n
		}
		return fmt.Errorf("%s: output %d out of range", stage, o)
	}
	if err := checkProgram("lower-tiles", p, rows, samples, want, mismatch); err != nil {
		return nil, err
	}
	// The passes after lower-tiles, in nn-to-circuit's order, each checked
	// on the program it leaves: dais-optimize; dais-rescale, which moves
	// shifts into the slots' scales; dais-fuse-sums, which makes ALIR spec
	// 4 sums (the last pass before --emit=alir-v4-*).
	r := &Report{Samples: samples, Inputs: p.NumInputs(), Outputs: p.NumOutputs(), Ops: len(p.Ops)}
	for _, st := range []struct {
		name string
		run  func() (int, error)
	}{
		{"dais-optimize", func() (int, error) { return daisopt.Optimize(prog, true) }},
		{"dais-rescale", func() (int, error) { return daisopt.Rescale(prog, true) }},
		{"dais-fuse-sums", func() (int, error) { return daisopt.FuseSums(prog, 3, true) }},
	} {
		if _, err := st.run(); err != nil {
			return nil, fmt.Errorf("%s: %w", st.name, err)
		}
		q, err := dais.ToALIR(prog)
		if err != nil {
			return nil, fmt.Errorf("ToALIR after %s: %w", st.name, err)
		}
		if err := checkProgram(st.name, q, rows, samples, want, mismatch); err != nil {
			return nil, err
		}
		if r.Optimized == nil {
			r.Optimized, r.OptimizedOps = q, len(q.Ops)
		}
	}
	return r, nil
}

// checkProgram checks that p is portable and that otir's interpreter and
// alkaid's semantics both compute want on the input rows.
func checkProgram(stage string, p *alir.Program, rows []float64, samples int, want []float64, mismatch func(string, int, float64) error) error {
	if bad, err := p.Portability(); err != nil || len(bad) > 0 {
		if err != nil {
			return fmt.Errorf("%s: %w", stage, err)
		}
		return fmt.Errorf("%s: the program is not portable: %v (%d ops)", stage, bad[0], len(bad))
	}
	mach, err := alir.Compile(p)
	if err != nil {
		return fmt.Errorf("%s: alir.Compile: %w", stage, err)
	}
	got, err := mach.Run(rows, samples)
	if err != nil {
		return fmt.Errorf("%s: ALIR interpreter: %w", stage, err)
	}
	for k := range want {
		if want[k] != got[k] {
			return mismatch(stage, k, got[k])
		}
	}
	// The same rows as alkaid's interpreter computes them.
	ref, err := runAlkaid(p, rows, samples)
	switch {
	case errors.Is(err, errUnsigned64):
		return nil // not comparable (see errUnsigned64)
	case err != nil:
		return fmt.Errorf("%s: alkaid's semantics: %w", stage, err)
	}
	for k := range got {
		if math.Float64bits(got[k]) != math.Float64bits(ref[k]) {
			return fmt.Errorf("%s: sample %d output %d: ALIR interpreter %v, alkaid's semantics %v", stage, k/p.NumOutputs(), k%p.NumOutputs(), got[k], ref[k])
		}
	}
	return nil
}

// randomBuffer fills a buffer of the argument type with random values: a
// mix of small values, extremes of the type and uniform ones (within
// +-2^53).
func randomBuffer(rng *rand.Rand, t ir.Type) (*exec.Buffer, error) {
	elem, shape := t, []int64(nil)
	if tt, ok := t.(*ir.TileType); ok {
		elem, shape = tt.Elem, tt.Shape
	}
	it, ok := elem.(*ir.IntType)
	if !ok {
		if _, isIndex := elem.(*ir.IndexType); !isIndex {
			return nil, fmt.Errorf("argument type %s is not an integer", t)
		}
		it = ir.Int(64, true)
	}
	lo, hi := big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), uint(it.Width))
	if it.Signed {
		lo.Rsh(hi, 1).Neg(lo)
		hi.Rsh(hi, 1)
	}
	hi.Sub(hi, big.NewInt(1))
	if lo.Cmp(big.NewInt(-maxExact)) < 0 {
		lo.SetInt64(-maxExact)
	}
	if hi.Cmp(big.NewInt(maxExact)) > 0 {
		hi.SetInt64(maxExact)
	}
	b := exec.NewBuffer(elem, shape...)
	span := new(big.Int).Sub(hi, lo).Int64() + 1
	for i := 0; i < b.Len(); i++ {
		var v int64
		switch r := rng.IntN(8); {
		case r == 0:
			v = lo.Int64()
		case r == 1:
			v = hi.Int64()
		case r <= 3:
			v = min(max(int64(rng.IntN(7)-3), lo.Int64()), hi.Int64())
		default:
			v = lo.Int64() + rng.Int64N(span)
		}
		if err := b.SetInt(i, big.NewInt(v)); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func describe(params []exec.Param, args []*exec.Buffer) []string {
	out := make([]string, len(args))
	for i, b := range args {
		out[i] = "%" + params[i].Name + " = " + b.String()
	}
	return out
}
