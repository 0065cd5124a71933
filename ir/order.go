package ir

import "sync/atomic"

// Program order within a block, cached on the ops as MLIR caches
// Operation::orderIndex for isBeforeInBlock: NumberBlock records each op's
// index under a stamp and Order returns it while the stamp matches, so a pass
// can compare positions in O(1) without a side table.
//
// The cache is a snapshot: nothing maintains it when a block is edited, so a
// pass numbers the blocks it needs (with a fresh stamp) right before relying
// on the order, and must not edit them meanwhile. Numbering writes the ops, so
// it must not run concurrently with anything else reading or writing them.

var lastStamp atomic.Uint32

// NewOrderStamp returns a stamp for one numbering. Stamps are unique until the
// 32-bit counter wraps around (after 4 billion numberings); 0 is never
// returned, as it marks an op never numbered.
func NewOrderStamp() uint32 {
	for {
		if s := lastStamp.Add(1); s != 0 {
			return s
		}
	}
}

// NumberBlock records the index of every op of b under stamp (nil entries are
// skipped). It returns the first op it could not number, or nil: one already
// numbered under stamp (listed twice, in b or in another block numbered with
// the same stamp), which keeps its first index, or one not linked to b
// (op.Block != b), which is numbered anyway.
func NumberBlock(b *Block, stamp uint32) (bad *Operation) {
	for i, op := range b.Ops {
		if op == nil {
			continue
		}
		if op.orderStamp == stamp {
			if bad == nil {
				bad = op
			}
			continue
		}
		op.order, op.orderStamp = uint32(i), stamp
		if op.Block != b && bad == nil {
			bad = op
		}
	}
	return bad
}

// Order returns op's index in its block as recorded by NumberBlock under
// stamp, and false if op was not numbered under stamp.
func (op *Operation) Order(stamp uint32) (int, bool) {
	return int(op.order), op.orderStamp == stamp
}
