package ir

import (
	"testing"
	"unsafe"
)

func TestNumberBlock(t *testing.T) {
	newBlock := func(n int) *Block {
		b := &Block{}
		for range n {
			b.Append(NewOp("otir.barrier", Location{}, nil, nil, nil))
		}
		return b
	}
	stray := NewOp("otir.barrier", Location{}, nil, nil, nil)
	cases := []struct {
		name string
		edit func(b *Block) // applied to a block of 4 ops
		bad  int            // index of the op NumberBlock reports, -1 for none
	}{
		{"regular", func(b *Block) {}, -1},
		{"nil op", func(b *Block) { b.Ops[1] = nil }, -1},
		{"listed twice", func(b *Block) { b.Ops = append(b.Ops, b.Ops[1]) }, 4},
		{"not linked", func(b *Block) { b.Ops[2].Block = nil }, 2},
		{"detached op", func(b *Block) { b.Ops[3] = stray }, 3},
	}
	for _, c := range cases {
		b := newBlock(4)
		c.edit(b)
		s := NewOrderStamp()
		var want *Operation
		if c.bad >= 0 {
			want = b.Ops[c.bad]
		}
		if bad := NumberBlock(b, s); bad != want {
			t.Errorf("%s: NumberBlock reported %p, want %p (op #%d)", c.name, bad, want, c.bad)
		}
		for i, op := range b.Ops {
			if op == nil {
				continue
			}
			// An op listed twice keeps its first index.
			if got, ok := op.Order(s); !ok || b.Ops[got] != op || got > i {
				t.Errorf("%s: op #%d has order %d, %v", c.name, i, got, ok)
			}
			if _, ok := op.Order(NewOrderStamp()); ok {
				t.Errorf("%s: op #%d ordered under a stamp it was not numbered with", c.name, i)
			}
		}
	}
}

// TestOperationSize: the order fields must not move Operation to a larger
// allocation size class (160 bytes on 64-bit platforms).
func TestOperationSize(t *testing.T) {
	if s := unsafe.Sizeof(Operation{}); unsafe.Sizeof(uintptr(0)) == 8 && s > 160 {
		t.Errorf("Operation is %d bytes, want at most 160", s)
	}
}
