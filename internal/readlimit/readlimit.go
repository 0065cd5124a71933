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
//
// An unknown size is read in chunks that double up to 16 MiB and joined at
// the end: an endless stream costs max+1 bytes of memory and one pass, not
// the repeated copies of a growing slice.
func readAll(r io.Reader, max int64, flag string, hint int64) ([]byte, error) {
	if max < 0 {
		max = 0
	}
	var chunks [][]byte
	total := int64(0)
	size := int64(64 << 10)
	if hint > 0 {
		size = hint + 1 // +1: one more byte shows the end
	}
	for {
		buf := make([]byte, min(size, max+1-total))
		n, err := io.ReadFull(r, buf)
		total += int64(n)
		if total > max {
			return nil, &TooLargeError{Limit: max, Flag: flag}
		}
		chunks = append(chunks, buf[:n])
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		size = min(2*size, 16<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	b := make([]byte, 0, total)
	for _, c := range chunks {
		b = append(b, c...)
	}
	return b, nil
}

// Reader returns a reader of r for a command that streams an input rather
// than reading it whole: it fails with a *TooLargeError (naming flag) once
// r has given more than max bytes, and never reads more than max+1.
func Reader(r io.Reader, max int64, flag string) io.Reader {
	return &limited{r: r, left: max, err: &TooLargeError{Limit: max, Flag: flag}}
}

type limited struct {
	r    io.Reader
	left int64 // bytes still allowed; -1 once the bound is crossed
	err  error
}

func (l *limited) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.left {
		n, l.left = int(l.left), -1
		return n, l.err
	}
	l.left -= int64(n)
	return n, err
}
