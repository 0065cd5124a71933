// Package fuzzbytes hands a fuzz target's input out one byte at a time, as
// the choices of a builder of random programs or models: once the input is
// used up every choice is 0, so that any input builds something.
package fuzzbytes

// Reader hands out the bytes of its data in order.
type Reader struct {
	data []byte
	pos  int
}

// New returns a Reader of data.
func New(data []byte) *Reader { return &Reader{data: data} }

// Next is the next byte, or 0 once the data is used up.
func (r *Reader) Next() int {
	if r.pos >= len(r.data) {
		return 0
	}
	r.pos++
	return int(r.data[r.pos-1])
}

// Pick is a choice among n (n > 0): the next byte modulo n.
func (r *Reader) Pick(n int) int { return r.Next() % n }
