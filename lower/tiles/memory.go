package tiles

import (
	"fmt"

	"github.com/otir-dev/otir/internal/tileview"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/dais"
)

// Memory is modelled at compile time: every #global argument and #workgroup
// allocation is an array of cells, each holding the num the program has
// last written there, in program order. Inside the branches of a
// data-dependent scf.if, writes go to an overlay instead, and the two
// branches' overlays are merged with muxes when the if ends (ifconv.go).

// cellKey names one cell.
type cellKey struct {
	mem *memory
	i   int
}

// overlay is the writes of one branch, in the order first written (so that
// merging emits ops in a deterministic order).
type overlay struct {
	vals map[cellKey]num
	keys []cellKey
}

func newOverlay() *overlay { return &overlay{vals: map[cellKey]num{}} }

func (o *overlay) set(k cellKey, n num) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = n
}

// write stores n into cell i of mem.
func (l *lowerer) write(mem *memory, i int, n num) {
	if mem.arg >= 0 {
		l.args[mem.arg].written = true
	}
	if k := len(l.frames); k > 0 {
		l.frames[k-1].set(cellKey{mem, i}, n)
		return
	}
	mem.cells[i] = cell{n: n, state: cellSet}
}

// read returns the value of cell i of mem, seen from the innermost branch.
// A #global element still holding its initial value becomes an input; an
// uninitialised #workgroup element is an error (as in the executor), except
// when zeroUninit (merging branches) or inside a data-dependent branch: the
// branch may never run, and when it runs with such a read the executor
// fails, so any value will do; it reads as 0.
func (l *lowerer) read(mem *memory, i int, zeroUninit bool) (num, error) {
	for k := len(l.frames) - 1; k >= 0; k-- {
		if n, ok := l.frames[k].vals[cellKey{mem, i}]; ok {
			return n, nil
		}
	}
	c := &mem.cells[i]
	switch c.state {
	case cellInitial:
		n, err := l.initial(mem, i)
		if err != nil {
			return num{}, err
		}
		// The input is the same in every branch: record it in the base.
		c.n, c.state = n, cellSet
	case cellUninit:
		if zeroUninit || len(l.frames) > 0 {
			return intNum(0), nil
		}
		return num{}, l.errf("reads an uninitialised element of %s (element %s)", mem.name, coordString(mem.shape, i)).
			Note(mem.def, "allocated here")
	}
	return c.n, nil
}

// coordString prints the coordinates of row-major element i of shape.
func coordString(shape []int64, i int) string {
	return fmt.Sprint(tileview.Coord(int64(i), shape))
}

// initial makes the input that holds element i of a #global argument.
func (l *lowerer) initial(mem *memory, i int) (num, error) {
	a := l.args[mem.arg]
	t, _ := intTypeOf(mem.elem)
	return l.input(a, i, t)
}

// input appends a dais.input reading element i of argument a, a value of
// type t; its index is set once every input is known (numberInputs).
func (l *lowerer) input(a *argInfo, i int, t intT) (num, error) {
	s, err := l.emit(dais.OpInput, nil, ir.Attrs{{Name: "index", Value: ir.I64(0)}}, t.lo, t.hi)
	if err != nil {
		return num{}, err
	}
	a.inputs = append(a.inputs, s.id)
	a.inputElems = append(a.inputElems, i)
	return slotNum(s), nil
}

// readView reads every element of a view.
func (l *lowerer) readView(v *view) ([]num, error) {
	if err := l.checkPending(v, false, nil); err != nil {
		return nil, err
	}
	out := make([]num, len(v.idx))
	for i, k := range v.idx {
		n, err := l.read(v.mem, k, false)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}
