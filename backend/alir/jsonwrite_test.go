package alir

import (
	"bytes"
	"errors"
	"testing"
)

// chunkWriter records what it is given, failing from the failAt-th write on
// (0: never).
type chunkWriter struct {
	bytes.Buffer
	writes, failAt int
}

func (c *chunkWriter) Write(b []byte) (int, error) {
	c.writes++
	if c.failAt > 0 && c.writes >= c.failAt {
		return 0, errors.New("disk full")
	}
	return c.Buffer.Write(b)
}

// TestWriteJSONStreams checks that WriteJSON and WriteJSONV4 write the
// document of EncodeJSON and EncodeJSONV4 in blocks, never holding it whole,
// and that a write error ends the run with that error.
func TestWriteJSONStreams(t *testing.T) {
	p := RandomShiftAdd(ShiftAddConfig{Ops: 20000, Seed: 3})
	for _, c := range []struct {
		name   string
		write  func(*chunkWriter, *Program) error
		encode func(*Program) ([]byte, error)
	}{
		{"v2", func(w *chunkWriter, p *Program) error { return WriteJSON(w, p) }, EncodeJSON},
		{"v4", func(w *chunkWriter, p *Program) error { return WriteJSONV4(w, p) }, EncodeJSONV4},
	} {
		want, err := c.encode(p)
		if err != nil {
			t.Fatal(err)
		}
		var w chunkWriter
		if err := c.write(&w, p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(w.Bytes(), want) {
			t.Errorf("%s: WriteJSON differs from EncodeJSON", c.name)
		}
		if min := len(want) / (jsonBlock + 4096); w.writes < 2 || w.writes < min {
			t.Errorf("%s: %d bytes in %d writes, want blocks of about %d", c.name, len(want), w.writes, jsonBlock)
		}
		bad := chunkWriter{failAt: 2}
		if err := c.write(&bad, p); err == nil || err.Error() != "disk full" {
			t.Errorf("%s: a failing writer gave %v", c.name, err)
		}
	}
}
