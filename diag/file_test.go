package diag

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"
)

type posErr struct {
	line, col int
	err       error
}

func (e *posErr) Error() string             { return fmt.Sprintf("line %d: %v", e.line, e.err) }
func (e *posErr) Unwrap() error             { return e.err }
func (e *posErr) Position() (line, col int) { return e.line, e.col }

func TestAboutFile(t *testing.T) {
	missing := &fs.PathError{Op: "open", Path: "a.json", Err: errors.New("no such file or directory")}
	for _, c := range []struct {
		path string
		err  error
		want string
	}{
		{"a.json", missing, "a.json: error: cannot open the file: no such file or directory"},
		{"d", &fs.PathError{Op: "mkdir", Path: "d", Err: errors.New("permission denied")}, "d: error: cannot create the directory: permission denied"},
		{"a.json", fmt.Errorf("a.json: %w", errors.New("json: bad")), "a.json: error: json: bad"},
		{"x.txt", &posErr{2, 5, errors.New("bad number \"q\"")}, `x.txt:2:5: error: bad number "q"`},
		{"x.txt", fmt.Errorf("x.txt: %w", &posErr{3, 0, errors.New("short")}), "x.txt:3:1: error: short"},
		{"x.txt", fmt.Errorf("argument a: %w", &posErr{0, 0, errors.New("somewhere")}), "x.txt: error: argument a: line 0: somewhere"},
	} {
		if got := AboutFile(c.path, c.err).Error(); got != c.want {
			t.Errorf("AboutFile(%q, %v) = %q, want %q", c.path, c.err, got, c.want)
		}
	}
}
