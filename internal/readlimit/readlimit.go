// Package readlimit reads whole input files with a bound on their size, so
// that an endless or huge stream (/dev/zero, a pipe that never closes, a
// mistyped multi-gigabyte path) is a prompt error instead of a machine out
// of memory. Every command reads the files a user names through it.
package readlimit

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Default is the most bytes a command reads from one input file unless its
// --max-input-bytes flag says otherwise: 256 MiB.
const Default int64 = 256 << 20

// Flag is the name of the flag that raises the bound, for error messages.
const Flag = "--max-input-bytes"

// TooLargeError reports an input that holds more than Limit bytes.
type TooLargeError struct {
	Limit int64
	// Flag names the option that raises the limit ("": the command has none).
	Flag string
}

func (e *TooLargeError) Error() string {
	if e.Flag == "" {
		return fmt.Sprintf("input is larger than %d bytes", e.Limit)
	}
	return fmt.Sprintf("input is larger than %d bytes (%s raises it)", e.Limit, e.Flag)
}

// IsTooLarge reports whether err is (or wraps) a *TooLargeError.
func IsTooLarge(err error) bool {
	var e *TooLargeError
	return errors.As(err, &e)
}

// All reads r to its end, or fails with a *TooLargeError (naming flag) as
// soon as it has more than max bytes; it never reads more than max+1.
func All(r io.Reader, max int64, flag string) ([]byte, error) {
	return readAll(r, max, flag, 0)
}

// File reads the file at path as All does. A regular file larger than max
// fails before any of it is read.
func File(path string, max int64, flag string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
		if size > max {
			return nil, &TooLargeError{Limit: max, Flag: flag}
		}
	}
	return readAll(f, max, flag, size)
}

// readAll is All with a hint of the size to expect (0: unknown).
func readAll(r io.Reader, max int64, flag string, hint int64) ([]byte, error) {
	if max < 0 {
		max = 0
	}
	const chunk = 64 << 10
	capacity := hint + 1 // +1: one more read sees the end
	if hint == 0 {
		capacity = min(max+1, chunk)
	}
	b := make([]byte, 0, capacity)
	for {
		if len(b) == cap(b) {
			// Grow by doubling, never past max+1 bytes.
			b = append(b, 0)[:len(b)]
			if int64(cap(b)) > max+1 {
				b = b[: len(b) : max+1]
			}
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &TooLargeError{Limit: max, Flag: flag}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}
