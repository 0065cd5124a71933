package progress

import (
	"os"
	"strconv"
)

// Terminal reports whether f is a terminal, and its width in columns (80
// when it cannot be told).
func Terminal(f *os.File) (ok bool, width int) {
	if f == nil {
		return false, 0
	}
	ok, width = terminal(f)
	if !ok {
		return false, 0
	}
	if width <= 0 {
		if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
			width = n
		} else {
			width = 80
		}
	}
	return true, width
}
