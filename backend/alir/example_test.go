package alir_test

import (
	"fmt"

	"github.com/otir-dev/otir/backend/alir"
)

// Build y = relu(x0 + x1*2^-1) for two 8-bit inputs and run it.
func Example() {
	b := alir.NewBuilder(alir.ALIR, 2)
	in := alir.QInterval{Min: -8, Max: 7.9375, Step: 0.0625} // 8 bits, 4 fractional
	x0, x1 := b.Input(0, in), b.Input(1, in)
	s := b.Add(x0, x1, -1, alir.AddQInt(in, in, -1, false))
	y := b.ReLU(s, alir.ReLUQInt(b.QInt(s)))
	b.Output(y, 0, false)
	p, err := b.Build()
	if err != nil {
		panic(err)
	}
	m, err := alir.Compile(p)
	if err != nil {
		panic(err)
	}
	out, err := m.RunRows([][]float64{{1.5, 3}, {-2, 1}, {0.03, 0.1}})
	fmt.Println(out, err)
	// Output: [[3] [0] [0.03125]] <nil>
}
