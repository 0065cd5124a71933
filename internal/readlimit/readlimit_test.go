package readlimit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// endless is /dev/zero as an io.Reader: it never ends, and counts what it
// gave.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.read += int64(len(p))
	return len(p), nil
}

func TestAllStopsAnEndlessStream(t *testing.T) {
	for _, max := range []int64{0, 1, 1000, 1 << 20} {
		var r endless
		_, err := All(&r, max, Flag)
		var tl *TooLargeError
		if !errors.As(err, &tl) || tl.Limit != max {
			t.Fatalf("max %d: got %v, want a TooLargeError", max, err)
		}
		if r.read > max+1 {
			t.Errorf("max %d: read %d bytes, want at most %d", max, r.read, max+1)
		}
	}
}

func TestAll(t *testing.T) {
	for _, n := range []int{0, 1, 999, 1000, 200 << 10} {
		data := bytes.Repeat([]byte("x"), n)
		// iotest-like: a reader that returns one byte less than asked.
		got, err := All(io.LimitReader(bytes.NewReader(data), int64(n)), 1000, Flag)
		switch {
		case n <= 1000 && (err != nil || !bytes.Equal(got, data)):
			t.Errorf("%d bytes: got %d bytes, %v", n, len(got), err)
		case n > 1000 && !IsTooLarge(err):
			t.Errorf("%d bytes: got %v, want too large", n, err)
		}
	}
}

func TestFile(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	os.WriteFile(small, []byte("hello\n"), 0o644)
	if b, err := File(small, 6, Flag); err != nil || string(b) != "hello\n" {
		t.Errorf("got %q, %v", b, err)
	}
	_, err := File(small, 5, Flag)
	if err == nil || err.Error() != "input is larger than 5 bytes (--max-input-bytes raises it)" {
		t.Errorf("got %v", err)
	}
	_, err = File(small, 5, "")
	if err == nil || err.Error() != "input is larger than 5 bytes" {
		t.Errorf("without a flag: got %v", err)
	}
	if _, err := File(filepath.Join(dir, "missing"), 5, Flag); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: got %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := File("/dev/zero", 1<<20, Flag)
		if !IsTooLarge(err) || !strings.Contains(err.Error(), "1048576") {
			t.Errorf("/dev/zero: got %v", err)
		}
	}
}

func TestReader(t *testing.T) {
	var e endless
	r := Reader(&e, 1000, Flag)
	n, err := io.Copy(io.Discard, r)
	if n != 1000 || !IsTooLarge(err) || e.read > 1001 {
		t.Errorf("endless: copied %d, read %d, %v", n, e.read, err)
	}
	if _, err := r.Read(make([]byte, 10)); !IsTooLarge(err) {
		t.Errorf("after the bound: %v", err)
	}
	got, err := io.ReadAll(Reader(strings.NewReader("hello"), 5, Flag))
	if err != nil || string(got) != "hello" {
		t.Errorf("at the bound: %q, %v", got, err)
	}
}
