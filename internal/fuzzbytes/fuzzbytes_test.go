package fuzzbytes

import "testing"

func TestReader(t *testing.T) {
	r := New([]byte{7, 255, 10})
	if got := []int{r.Next(), r.Next(), r.Pick(4), r.Next(), r.Pick(3)}; got != nil && (got[0] != 7 || got[1] != 255 || got[2] != 2 || got[3] != 0 || got[4] != 0) {
		t.Errorf("got %v, want [7 255 2 0 0]", got)
	}
}
