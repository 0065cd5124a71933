package parse

import (
	"hash/maphash"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"otir/ir"
)

// Resolving a large flat region in parallel. The body of a kernel unrolled
// into 100,000 operations has no nested regions: every name is defined once
// at its top level and used below. For such a region (isolated, at least
// parallelResolveOps operations, none with regions) the names are bound in
// three parallel steps:
//
//  1. hash every result name (ranges of operations);
//  2. insert the names into tables sharded by hash, one goroutine per shard,
//     each in text order, so a redefinition is seen as in a sequential walk;
//  3. bind every operand (ranges of operations) to the name's definition,
//     which must come before the use and have the type the use gives it.
//
// Anything else, a redefinition, a forward or undeclared name, a type that
// differs, makes the step give up: the sequential walk then resolves the
// region from the start (overwriting any operand bound here) and words the
// diagnostics, so the result is always the sequential walk's.

// parallelResolveOps is the fewest operations of a region resolved in
// parallel (a variable for tests, which also count the regions resolved).
var (
	parallelResolveOps = 8192
	parallelResolved   atomic.Int64
)

// nameDef is a name defined in the region: by operation pos (-1: a block
// argument).
type nameDef struct {
	key  string
	hash uint64
	v    *ir.Value
	pos  int32
}

// resolveParallel binds the names of the region whose operations are list
// and reports whether it did; false means the sequential walk must.
func (r *resolver) resolveParallel(reg *Region, list []*Operation) bool {
	workers := r.workers
	if workers < 2 || len(list) < parallelResolveOps || len(list) > 1<<31-1 {
		return false
	}
	for _, o := range list {
		if len(o.regions) > 0 {
			return false
		}
	}
	var failed atomic.Bool
	spans := splitRange(len(list), 4*workers)

	// 1. The names each range defines, in text order.
	defs := make([][]nameDef, len(spans)+1)
	if reg.block != nil {
		for i, a := range reg.block.Args {
			name := reg.argNames[i]
			if strings.IndexByte(name, '#') >= 0 {
				return false
			}
			defs[0] = append(defs[0], nameDef{key: name, hash: maphash.String(nameSeed, name), v: a, pos: -1})
		}
	}
	parallel(workers, len(spans), func(s int) {
		lo, hi := spans[s][0], spans[s][1]
		out := make([]nameDef, 0, hi-lo)
		for i := lo; i < hi && !failed.Load(); i++ {
			o := list[i]
			k := 0
			for _, name := range o.Results {
				count := 1
				if j := strings.IndexByte(name, ':'); j >= 0 {
					count, _ = strconv.Atoi(name[j+1:])
					name = name[:j]
				}
				for c := 0; c < count; c++ {
					if k >= len(o.op.Results) {
						failed.Store(true)
						return
					}
					key := resultKey(name, c)
					out = append(out, nameDef{key: key, hash: maphash.String(nameSeed, key), v: o.op.Results[k], pos: int32(i)})
					k++
				}
			}
		}
		defs[s+1] = out
	})
	if failed.Load() {
		return false
	}

	// 2. One table per shard, filled in text order; a value is the index of
	// the definition in defs[part].
	type ref struct{ part, idx int32 }
	shards := make([]*nameTable[ref], workers)
	parallel(workers, workers, func(sh int) {
		t := newNameTable[ref](len(list)/workers + 16)
		for p, part := range defs {
			for i := range part {
				d := &part[i]
				if shardOf(d.hash, workers) != sh {
					continue
				}
				if _, dup := t.insertHashed(d.key, d.hash, ref{int32(p), int32(i)}); dup {
					failed.Store(true) // a redefinition
					return
				}
			}
		}
		shards[sh] = t
	})
	if failed.Load() {
		return false
	}

	// 3. Bind the operands.
	parallel(workers, len(spans), func(s int) {
		for i := spans[s][0]; i < spans[s][1] && !failed.Load(); i++ {
			o := list[i]
			for j := range o.uses {
				u := &o.uses[j]
				k := useKey(u.name)
				h := maphash.String(nameSeed, k)
				at, ok := shards[shardOf(h, workers)].lookupHashed(k, h)
				if !ok {
					failed.Store(true) // undeclared, or defined later
					return
				}
				d := &defs[at.part][at.idx]
				if int(d.pos) >= i || d.v.Type != u.typ {
					failed.Store(true)
					return
				}
				o.op.Operands[j] = d.v
			}
		}
	})
	if failed.Load() {
		return false
	}
	parallelResolved.Add(1)
	return true
}

// shardOf is the shard of a name hash: from its top bits, as the tables use
// the low ones for slots and the next for tags.
func shardOf(h uint64, shards int) int { return int((h >> 56) % uint64(shards)) }

// splitRange cuts [0, n) into at most k ranges of nearly equal size.
func splitRange(n, k int) [][2]int {
	if k > n {
		k = max(n, 1)
	}
	out := make([][2]int, k)
	for i := range out {
		out[i] = [2]int{i * n / k, (i + 1) * n / k}
	}
	return out
}

// parallel runs f(0..n-1) on up to workers goroutines, taking indexes in
// turn. A panic in f is raised again in the caller.
func parallel(workers, n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var panicked any
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					if panicked == nil {
						panicked = p
					}
					mu.Unlock()
				}
			}()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				f(i)
			}
		}()
	}
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
}
