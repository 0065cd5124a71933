package verify

import (
	"testing"

	"github.com/otir-dev/otir/ir"
)

func TestOpSet(t *testing.T) {
	for _, capacity := range []int{0, 10, 5000} {
		s := newOpSet(capacity)
		in := make([]*ir.Operation, 3000)
		out := make([]*ir.Operation, 3000)
		for i := range in {
			in[i] = &ir.Operation{}
			out[i] = &ir.Operation{}
		}
		for _, op := range in {
			s.add(op)
			s.add(op) // adding twice is a no-op
		}
		if s.n != len(in) {
			t.Errorf("capacity %d: n = %d, want %d", capacity, s.n, len(in))
		}
		if 2*s.n > len(s.keys) {
			t.Errorf("capacity %d: table more than half full (%d of %d)", capacity, s.n, len(s.keys))
		}
		for i := range in {
			if !s.has(in[i]) {
				t.Fatalf("capacity %d: added op %d missing", capacity, i)
			}
			if s.has(out[i]) {
				t.Fatalf("capacity %d: op %d never added but found", capacity, i)
			}
		}
	}
}
