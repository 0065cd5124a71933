package rtl

import (
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// TestPortsFollowAlkaid: an output lane is its op's type (alkaid's port
// convention) whenever the program is portable, even where the builder's
// own interval arithmetic cannot prove the value fits; it is widened only
// in a program that is not portable. d = (x + y) − y is x: its type, 8
// bits, holds it (Portability's exact linear forms prove it), while
// intervals give d 10 bits; s = x + y declared 8 bits overflows it.
func TestPortsFollowAlkaid(t *testing.T) {
	i8 := alir.QInterval{Min: -128, Max: 127, Step: 1}
	i9 := alir.QInterval{Min: -256, Max: 254, Step: 1}
	for _, c := range []struct {
		name    string
		sumType alir.QInterval
		widened bool
	}{
		{"portable", i9, false},
		{"not portable", i8, true},
	} {
		b := alir.NewBuilder(alir.ALIR, 2)
		x, y := b.Input(0, i8), b.Input(1, i8)
		s := b.Add(x, y, 0, c.sumType)
		d := b.Sub(s, y, 0, i8)
		b.Output(d, 0, false)
		p, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		np, err := p.Portability()
		if err != nil || (len(np) == 0) == c.widened {
			t.Fatalf("%s: Portability() = %v, %v", c.name, np, err)
		}
		des, err := Build(p, Options{Name: "ports"})
		if err != nil {
			t.Fatal(err)
		}
		l := des.Outputs[0]
		if l.Widened != c.widened || !c.widened && (l.Width != 8 || !l.Signed) {
			t.Errorf("%s: output lane %+v, want widened %v (8-bit signed when not)", c.name, l, c.widened)
		}
	}
}

// TestConformancePorts: every conformance program is portable, so every
// output lane is its op's type, none widened (alkaid-cmvm64 had 27 of 64
// widened before).
func TestConformancePorts(t *testing.T) {
	for _, c := range conformanceCases {
		p, _ := readConformance(t, c.dir, c.model, 1)
		d, err := Build(p, Options{Name: "conf"})
		if err != nil {
			t.Fatal(err)
		}
		for j, l := range d.Outputs {
			if l.Widened {
				t.Errorf("%s/%s: output %d widened: %+v", c.dir, c.model, j, l)
			}
		}
	}
}
