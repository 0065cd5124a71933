package tensor

import (
	"strings"
	"testing"
)

// TestBatch: a tensor of the argument's shape is one sample, [N, ...shape]
// is N (0 included, but not for SplitBatch), anything else an error naming
// both shapes.
func TestBatch(t *testing.T) {
	for _, c := range []struct {
		in, arg []int64
		n       int
		batched bool
		err     string // Batch's
		split   string // SplitBatch's, when it differs
	}{
		{in: []int64{1, 3}, arg: []int64{1, 3}, n: 1},
		{in: []int64{4, 1, 3}, arg: []int64{1, 3}, n: 4, batched: true},
		{in: []int64{1, 1, 3}, arg: []int64{1, 3}, n: 1, batched: true},
		{in: []int64{0, 1, 3}, arg: []int64{1, 3}, n: 0, batched: true, split: "shape [0, 1, 3] is a batch of no samples"},
		{in: []int64{5}, arg: []int64{}, n: 5, batched: true},
		{in: []int64{}, arg: []int64{}, n: 1},
		{in: []int64{4, 3}, arg: []int64{1, 3}, err: "shape [4, 3] is neither the argument's [1, 3] nor a batch of it [N, 1, 3]"},
		{in: []int64{2, 2}, arg: []int64{}, err: "shape [2, 2] is neither the argument's [] nor a batch of it [N]"},
		{in: []int64{MaxBatch + 1}, arg: []int64{}, err: "1048577 samples (at most 1048576)"},
	} {
		x := New(c.in)
		for i := range x.Data {
			x.Data[i] = float64(i)
		}
		samples, batched, err := Batch(x, c.arg)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("Batch(%v, %v): error %v, want %q", c.in, c.arg, err, c.err)
			}
			continue
		}
		if err != nil || len(samples) != c.n || batched != c.batched {
			t.Errorf("Batch(%v, %v) = %d samples, batched %v, %v; want %d, %v", c.in, c.arg, len(samples), batched, err, c.n, c.batched)
			continue
		}
		size := NumElements(c.arg)
		for s, smp := range samples {
			if len(smp.Data) != int(size) || (size > 0 && smp.Data[0] != float64(int64(s)*size)) {
				t.Errorf("Batch(%v, %v): sample %d is %v", c.in, c.arg, s, smp.Data)
			}
		}
		if _, err := SplitBatch(x, c.arg); (err == nil) != (c.split == "") || (err != nil && !strings.Contains(err.Error(), c.split)) {
			t.Errorf("SplitBatch(%v, %v): error %v, want %q", c.in, c.arg, err, c.split)
		}
	}
}
