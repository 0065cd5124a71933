package alir

import (
	"math"
	"testing"
)

func TestQIntervalKIF(t *testing.T) {
	cases := []struct {
		q    QInterval
		want KIF
	}{
		{QInterval{-3, 3, 1}, KIF{true, 2, 0}}, // the ERRATA example
		{QInterval{-4, 3, 1}, KIF{true, 2, 0}},
		{QInterval{0, 0, 0.25}, KIF{}},
		{QInterval{-256, 255.9375, 0.0625}, KIF{true, 8, 4}},
		{QInterval{0, 255.9375, 0.0625}, KIF{false, 8, 4}},
		{QInterval{0, 1, 1}, KIF{false, 1, 0}},
		{QInterval{0, 1024, 1024}, KIF{false, 11, -10}},
		{QInterval{-2.25, 2.25, 0.25}, KIF{true, 2, 2}},
		{QInterval{-0.25, -0.25, 0.25}, KIF{true, -2, 2}}, // width 1
		{QInterval{-8, -5, 1}, KIF{true, 3, 0}},
		{QInterval{0, 0x1p53, 1}, KIF{false, 54, 0}}, // 2^53+1 is not a float
		{QInterval{0, 0x1p53 - 1, 1}, KIF{false, 53, 0}},
		{QInterval{-0x1p63, 0x1p63 - 1024, 1}, KIF{true, 63, 0}},
		{QInterval{0, 0x1p64 - 2048, 1}, KIF{false, 64, 0}},
	}
	for _, c := range cases {
		got, err := c.q.KIF()
		if err != nil || got != c.want {
			t.Errorf("%v.KIF() = %v, %v; want %v", c.q, got, err, c.want)
		}
	}
	bad := []QInterval{
		{0, 1, 3},           // step not a power of two
		{0, 1, 0},           // zero step
		{0, 1, -1},          // negative step
		{1, 0, 1},           // min > max
		{math.NaN(), 1, 1},  // NaN
		{0, math.Inf(1), 1}, // infinite
		{-0x1p64, 0, 1},     // 65 bits
		{0, 0x1p64, 1},      // 65 bits
		{0, 1, math.Inf(1)}, // infinite step
		{-0.5, -0.5, 1},     // a signed type without its sign bit
	}
	for _, q := range bad {
		if got, err := q.KIF(); err == nil {
			t.Errorf("%v.KIF() = %v, want an error", q, got)
		}
	}
}

// TestKIFRoundTrip checks t.QInterval().KIF() == t for every valid type over
// a range of widths and fractional bits, including the float64 extremes.
func TestKIFRoundTrip(t *testing.T) {
	var ts []KIF
	for w := 0; w <= 64; w++ {
		for f := -70; f <= 70; f += 7 {
			ts = append(ts, KIF{false, w - f, f}, KIF{true, w - 1 - f, f})
		}
	}
	ts = append(ts, KIF{false, 1, 1074 - 1}, KIF{true, 1023, -1000}, KIF{false, 1023, -960})
	for _, k := range ts {
		if k.Check() != nil {
			continue
		}
		q := k.QInterval()
		got, err := q.KIF()
		if err != nil || got != k {
			t.Errorf("%v -> %v -> %v, %v", k, q, got, err)
		}
	}
	if (KIF{false, 65, 0}).Check() == nil || (KIF{true, 0, -1}).Check() == nil || (KIF{false, -3, 3}).Check() == nil {
		t.Error("Check accepts an invalid type")
	}
}

func TestIntervalHelpers(t *testing.T) {
	a, b := QInterval{-1, 2, 0.5}, QInterval{0, 3, 1}
	if got, want := AddQInt(a, b, 1, false), (QInterval{-1, 8, 0.5}); got != want {
		t.Errorf("AddQInt = %v, want %v", got, want)
	}
	if got, want := AddQInt(a, b, -2, true), (QInterval{-1.75, 2, 0.25}); got != want {
		t.Errorf("AddQInt sub = %v, want %v", got, want)
	}
	if got, want := MulQInt(a, b), (QInterval{-3, 6, 0.5}); got != want {
		t.Errorf("MulQInt = %v, want %v", got, want)
	}
	if got, want := NegQInt(a), (QInterval{-2, 1, 0.5}); got != want {
		t.Errorf("NegQInt = %v, want %v", got, want)
	}
	if got, want := ReLUQInt(a), (QInterval{0, 2, 0.5}); got != want {
		t.Errorf("ReLUQInt = %v, want %v", got, want)
	}
}
