package cmvm

import (
	"errors"
	"math"
	"testing"
)

func TestIntervalWidth(t *testing.T) {
	tests := []struct {
		iv   Interval
		want int
	}{
		{Interval{0, 0, 0}, 0},
		{Interval{-3, 3, 0}, 3}, // ERRATA's example: (1, 2, 0)
		{Interval{0, 1, 0}, 1},
		{Interval{0, 255, 0}, 8},
		{Interval{-128, 127, 0}, 8},
		{Interval{-129, 127, 0}, 9},
		{Interval{-1, -1, 0}, 1},
		{Interval{-8, -1, 0}, 4},
		{Interval{0, 255, -4}, 8}, // the step does not change the width
		{Interval{math.MinInt64, math.MaxInt64, 0}, 64},
		{Interval{0, math.MaxInt64, 0}, 63},
	}
	for _, tc := range tests {
		if got := tc.iv.Width(); got != tc.want {
			t.Errorf("%+v.Width() = %d, want %d", tc.iv, got, tc.want)
		}
	}
}

func TestIntervalValid(t *testing.T) {
	for _, iv := range []Interval{{1, 0, 0}, {0, 1, MaxExp + 1}, {0, 1, MinExp - 1}} {
		if iv.Valid() == nil {
			t.Errorf("%+v is valid, want an error", iv)
		}
	}
	for _, iv := range []Interval{{0, 0, 0}, {-5, 5, MinExp}, {3, 3, MaxExp}} {
		if err := iv.Valid(); err != nil {
			t.Errorf("%+v: %v", iv, err)
		}
	}
}

func TestCostModel(t *testing.T) {
	tests := []struct {
		m             CostModel
		width         int
		cost, latency int
	}{
		{CostModel{-1, -1}, 17, 1, 1},
		{CostModel{}, 17, 1, 1},
		{CostModel{AdderSize: 4, CarrySize: -1}, 17, 5, 1},
		{CostModel{AdderSize: -1, CarrySize: 8}, 17, 1, 3},
		{CostModel{AdderSize: 4, CarrySize: 8}, 16, 4, 2},
		{CostModel{AdderSize: 4, CarrySize: 8}, 0, 0, 0},
	}
	for _, tc := range tests {
		c, l := tc.m.Adder(tc.width)
		if c != tc.cost || l != tc.latency {
			t.Errorf("%+v.Adder(%d) = %d, %d; want %d, %d", tc.m, tc.width, c, l, tc.cost, tc.latency)
		}
	}
}

// TestAddShifted checks addShifted, exact even where b·2^s does not fit
// int64 (the checked int64 operations are internal/intrange's).
func TestAddShifted(t *testing.T) {
	type res struct {
		v  int64
		ok bool
	}
	tests := []struct {
		name string
		got  res
		want res
	}{
		{"addShifted", res2(addShifted(5, 3, 2, true)), res{-7, true}},
		{"addShifted wide intermediate", res2(addShifted(1, 1, 63, true)), res{math.MinInt64 + 1, true}},
		{"addShifted overflow", res2(addShifted(0, 1, 63, false)), res{0, false}},
		{"addShifted huge shift", res2(addShifted(0, 1, 1000, false)), res{0, false}},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, tc.got, tc.want)
		}
	}
}

func res2(v int64, ok bool) struct {
	v  int64
	ok bool
} {
	if !ok {
		v = 0
	}
	return struct {
		v  int64
		ok bool
	}{v, ok}
}

func TestExactInterval(t *testing.T) {
	in := []Interval{{-4, 3, 0}, {0, 5, -2}, {7, 7, 1}, {0, 0, 9}}
	tests := []struct {
		coef []int64
		want Interval
	}{
		{[]int64{0, 0, 0, 5}, Interval{}},            // only a constant-zero input
		{[]int64{1, 0, 0, 0}, Interval{-4, 3, 0}},    // the input itself
		{[]int64{-2, 0, 0, 0}, Interval{-3, 4, 1}},   // step 2: [-6, 8]
		{[]int64{1, 1, 0, 0}, Interval{-16, 17, -2}}, // units of 1/4
		{[]int64{0, 0, 3, 0}, Interval{21, 21, 1}},   // a constant
		{[]int64{1, -1, 1, 0}, Interval{35, 68, -2}}, // [-4 - 5/4 + 14, 3 + 14] in quarters
	}
	for _, tc := range tests {
		got, err := exactInterval(tc.coef, in)
		if err != nil || got != tc.want {
			t.Errorf("exactInterval(%v) = %+v, %v; want %+v", tc.coef, got, err, tc.want)
		}
	}
	_, err := exactInterval([]int64{math.MaxInt64}, []Interval{{-2, 2, 0}})
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("overflowing range: error %v, want ErrOverflow", err)
	}
	_, err = exactInterval([]int64{1, 1}, []Interval{{0, 1, 0}, {0, 1, 70}})
	if !errors.Is(err, ErrOverflow) {
		t.Errorf("exponent gap: error %v, want ErrOverflow", err)
	}
}
