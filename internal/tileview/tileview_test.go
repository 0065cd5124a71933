package tileview

import (
	"math"
	"slices"
	"testing"
)

func TestCountStridesCoord(t *testing.T) {
	for _, tc := range []struct {
		shape   []int64
		count   int64
		strides []int64
	}{
		{nil, 1, []int64{}},
		{[]int64{4}, 4, []int64{1}},
		{[]int64{2, 3, 4}, 24, []int64{12, 4, 1}},
		{[]int64{3, 0}, 0, []int64{0, 1}},
		{[]int64{-1, 5}, 0, []int64{5, 1}},
		{[]int64{math.MaxInt64, 2}, math.MaxInt64, nil},
	} {
		if got := Count(tc.shape); got != tc.count {
			t.Errorf("Count(%v) = %d, want %d", tc.shape, got, tc.count)
		}
		if tc.strides == nil {
			continue
		}
		if got := Strides(tc.shape); !slices.Equal(got, tc.strides) {
			t.Errorf("Strides(%v) = %v, want %v", tc.shape, got, tc.strides)
		}
		// Coord, Linear and Next agree on every element.
		c := make([]int64, len(tc.shape))
		for i := int64(0); i < tc.count; i++ {
			if got := Coord(i, tc.shape); !slices.Equal(got, c) {
				t.Fatalf("Coord(%d, %v) = %v, want %v", i, tc.shape, got, c)
			}
			if got := Linear(c, tc.strides); got != i {
				t.Fatalf("Linear(%v) = %d, want %d", c, got, i)
			}
			Next(c, tc.shape)
		}
	}
}

func TestShapeRelations(t *testing.T) {
	for _, tc := range []struct {
		a, b    []int64
		dropped bool
		bcast   []int64 // nil: no broadcast
	}{
		{[]int64{2, 3}, []int64{2, 3}, true, []int64{2, 3}},
		{[]int64{1, 3}, []int64{3}, true, []int64{1, 3}},
		{[]int64{4, 1, 3}, []int64{2, 1}, false, []int64{4, 2, 3}},
		{[]int64{1, 4, 1}, []int64{4}, true, []int64{1, 4, 4}},
		{[]int64{2, 3}, []int64{3, 2}, false, nil},
		{nil, []int64{1, 1}, true, []int64{1, 1}},
	} {
		if got := SameDropOnes(tc.a, tc.b); got != tc.dropped {
			t.Errorf("SameDropOnes(%v, %v) = %v", tc.a, tc.b, got)
		}
		got, ok := Broadcast(tc.a, tc.b)
		if ok != (tc.bcast != nil) || !slices.Equal(got, tc.bcast) {
			t.Errorf("Broadcast(%v, %v) = %v, %v; want %v", tc.a, tc.b, got, ok, tc.bcast)
		}
	}
}

func TestBroadcastStrides(t *testing.T) {
	for _, tc := range []struct {
		in, shape []int64
		fits      bool
		strides   []int64
		src       []int64
	}{
		{[]int64{3}, []int64{2, 3}, true, []int64{0, 1}, []int64{0, 1, 2, 0, 1, 2}},
		{[]int64{2, 1}, []int64{2, 3}, true, []int64{1, 0}, []int64{0, 0, 0, 1, 1, 1}},
		{nil, []int64{2}, true, []int64{0, 0}, []int64{0, 0}},
		{[]int64{2, 3}, []int64{3}, false, nil, nil},
		{[]int64{4}, []int64{2}, false, nil, nil},
		{[]int64{1, 3}, []int64{3}, false, nil, nil},
		{[]int64{1, 1}, []int64{2, 3}, true, []int64{0, 0}, []int64{0, 0, 0, 0, 0, 0}},
	} {
		if got := Fits(tc.in, tc.shape); got != tc.fits {
			t.Errorf("Fits(%v, %v) = %v", tc.in, tc.shape, got)
		}
		if !tc.fits {
			continue
		}
		s := BroadcastStrides(tc.in, tc.shape)
		if !slices.Equal(s, tc.strides[:len(tc.shape)]) {
			t.Errorf("BroadcastStrides(%v, %v) = %v, want %v", tc.in, tc.shape, s, tc.strides)
		}
		if got := Map[int64](tc.shape, s); !slices.Equal(got, tc.src) {
			t.Errorf("Map(%v, %v) = %v, want %v", tc.shape, s, got, tc.src)
		}
	}
}

func TestTranspose(t *testing.T) {
	for _, tc := range []struct {
		shape, perm []int64
		out, src    []int64
	}{
		{[]int64{2, 3}, []int64{1, 0}, []int64{3, 2}, []int64{0, 3, 1, 4, 2, 5}},
		{[]int64{2, 3}, []int64{0, 1}, []int64{2, 3}, []int64{0, 1, 2, 3, 4, 5}},
		{[]int64{1, 2, 2}, []int64{2, 0, 1}, []int64{2, 1, 2}, []int64{0, 2, 1, 3}},
		{nil, nil, []int64{}, []int64{0}},
	} {
		if !IsPermutation(tc.perm, len(tc.shape)) {
			t.Fatalf("IsPermutation(%v) = false", tc.perm)
		}
		out, src := Transpose(tc.shape, tc.perm)
		if !slices.Equal(out, tc.out) || !slices.Equal(src, tc.src) {
			t.Errorf("Transpose(%v, %v) = %v, %v; want %v, %v", tc.shape, tc.perm, out, src, tc.out, tc.src)
		}
	}
	for _, p := range [][]int64{{0}, {0, 0}, {1, 2}, {-1, 0}} {
		if IsPermutation(p, 2) {
			t.Errorf("IsPermutation(%v, 2) = true", p)
		}
	}
}

func TestBox(t *testing.T) {
	shape := []int64{4, 5}
	for _, tc := range []struct {
		name   string
		box    Box
		within bool
		src    []int64
	}{
		{"whole", Box{[]int64{0, 0}, []int64{4, 5}, []int64{1, 1}}, true, nil},
		{"corner", Box{[]int64{2, 3}, []int64{2, 2}, []int64{1, 1}}, true, []int64{13, 14, 18, 19}},
		{"strided", Box{[]int64{1, 0}, []int64{2, 3}, []int64{2, 2}}, true, []int64{5, 7, 9, 15, 17, 19}},
		{"row", Box{[]int64{3, 1}, []int64{1, 3}, []int64{1, 1}}, true, []int64{16, 17, 18}},
		{"past the end", Box{[]int64{3, 0}, []int64{2, 5}, []int64{1, 1}}, false, nil},
		{"stride past the end", Box{[]int64{0, 1}, []int64{1, 3}, []int64{1, 2}}, false, nil},
		{"negative offset", Box{[]int64{-1, 0}, []int64{1, 1}, []int64{1, 1}}, false, nil},
		{"offset at the end", Box{[]int64{4, 0}, []int64{1, 1}, []int64{1, 1}}, false, nil},
		{"zero size", Box{[]int64{0, 0}, []int64{0, 1}, []int64{1, 1}}, false, nil},
		{"zero stride", Box{[]int64{0, 0}, []int64{1, 1}, []int64{0, 1}}, false, nil},
		{"huge stride", Box{[]int64{0, 0}, []int64{2, 1}, []int64{math.MaxInt64, 1}}, false, nil},
	} {
		within := tc.box.Within(0, shape[0]) && tc.box.Within(1, shape[1])
		if within != tc.within {
			t.Errorf("%s: Within = %v", tc.name, within)
		}
		if !within {
			continue
		}
		src := tc.box.Sources(shape)
		want := tc.src
		if want == nil {
			want = Map[int64](shape, Strides(shape))
		}
		if !slices.Equal(src, want) {
			t.Errorf("%s: Sources = %v, want %v", tc.name, src, want)
		}
	}
}

func TestCompose(t *testing.T) {
	for _, tc := range []struct {
		base []int
		src  []int64
		want []int
	}{
		{nil, []int64{2, 0}, []int{2, 0}},
		{[]int{5, 6, 7}, []int64{2, 2, 0}, []int{7, 7, 5}},
		{[]int{9}, nil, []int{}},
	} {
		if got := Compose(tc.base, tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("Compose(%v, %v) = %v, want %v", tc.base, tc.src, got, tc.want)
		}
	}
}
