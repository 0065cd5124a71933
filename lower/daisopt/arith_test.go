package daisopt

import (
	"math"
	"math/big"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

func TestSpanInterval(t *testing.T) {
	n := func(s string) *big.Int {
		z, ok := new(big.Int).SetString(s, 0)
		if !ok {
			t.Fatalf("bad number %s", s)
		}
		return z
	}
	for _, c := range []struct {
		name   string
		lo, hi string
		f      int
		want   alir.QInterval
		k      alir.KIF
		ok     bool
	}{
		{"signed", "-3", "3", 0, alir.QInterval{Min: -3, Max: 3, Step: 1}, alir.KIF{Signed: true, Integers: 2}, true},
		{"unsigned with fractions", "0", "13", 2, alir.QInterval{Min: 0, Max: 3.25, Step: 0.25}, alir.KIF{Integers: 2, Fractionals: 2}, true},
		{"coarse step", "-1", "1", -3, alir.QInterval{Min: -8, Max: 8, Step: 8}, alir.KIF{Signed: true, Integers: 4, Fractionals: -3}, true},
		{"zero", "0", "0", 3, alir.QInterval{Min: 0, Max: 0, Step: 0.125}, alir.KIF{}, true},
		{"minus one", "-1", "-1", 0, alir.QInterval{Min: -1, Max: -1, Step: 1}, alir.KIF{Signed: true}, true},
		// 2^60-1 has no float64: the max rounds up to 2^60, beyond the
		// type, and is clamped to the type's own max (rounded down).
		{"beyond float64", "0", "0xfffffffffffffff", 0, alir.QInterval{Min: 0, Max: math.Nextafter(1<<60, 0), Step: 1}, alir.KIF{Integers: 60}, true},
		{"64 bits unsigned", "0", "0xffffffffffffffff", 0, alir.QInterval{Min: 0, Max: math.Nextafter(1<<64, 0), Step: 1}, alir.KIF{Integers: 64}, true},
		{"65 bits", "-1", "0xffffffffffffffff", 0, alir.QInterval{}, alir.KIF{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, k, ok := spanInterval(spanOf(n(c.lo), n(c.hi)), c.f)
			if ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
			if !ok {
				return
			}
			if q != c.want || k != c.k {
				t.Errorf("got %v %v, want %v %v", q, k, c.want, c.k)
			}
			if got, err := q.KIF(); err != nil || got != k {
				t.Errorf("interval %v has type %v (%v), want %v", q, got, err, k)
			}
		})
	}
}
