package tiles

// The abstract machine (spec 4, design: "dma_copy_async copies are complete
// only at the otir.wait on their token") makes touching a copy's
// destination, or writing its source, before the wait a program error; the
// executor reports it, and so does the lowering, with the same words.

// pendingCells are the cells of a pending copy: its destination elements
// the mask is known to select, and its source elements.
type pendingCells struct {
	dst, src map[int]bool
}

// cellsOf returns (building once) the cells of copy c.
func (l *lowerer) cellsOf(c *dmaCopy) *pendingCells {
	if l.pendingCells == nil {
		l.pendingCells = map[*dmaCopy]*pendingCells{}
	}
	if pc := l.pendingCells[c]; pc != nil {
		return pc
	}
	pc := &pendingCells{dst: map[int]bool{}, src: map[int]bool{}}
	for j, k := range c.dst.idx {
		if c.mask != nil {
			if _, _, sel := l.condition(c.mask[j]); sel != 1 {
				continue
			}
		}
		pc.dst[k] = true
	}
	if c.srcView != nil {
		for _, k := range c.srcView.idx {
			pc.src[k] = true
		}
	}
	l.pendingCells[c] = pc
	return pc
}

// checkPending reports the first element of v (those sel selects; nil: all)
// that is the destination of a pending copy, or, for a write, its source.
func (l *lowerer) checkPending(v *view, write bool, sel func(j int) bool) error {
	if len(l.pending) == 0 {
		return nil
	}
	verb := "reads"
	if write {
		verb = "writes"
	}
	for _, c := range l.pending {
		pc := l.cellsOf(c)
		for j, k := range v.idx {
			if sel != nil && !sel(j) {
				continue
			}
			if c.dst.mem == v.mem && pc.dst[k] {
				return l.errf("%s element %d of %s, the destination of an asynchronous copy that is not complete; wait on its token first", verb, k, v.mem.name).
					Note(c.op.Loc, "the copy is started here")
			}
			if write && c.srcView != nil && c.srcView.mem == v.mem && pc.src[k] {
				return l.errf("writes element %d of %s, the source of an asynchronous copy that is not complete; wait on its token first", k, v.mem.name).
					Note(c.op.Loc, "the copy is started here")
			}
		}
	}
	return nil
}
