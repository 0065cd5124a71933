//go:build !linux

package progress

import "os"

// terminal takes a character device for a terminal (/dev/null is one too:
// a line drawn there is lost, harmlessly); the width is unknown.
func terminal(f *os.File) (bool, int) {
	fi, err := f.Stat()
	if err != nil {
		return false, 0
	}
	return fi.Mode()&os.ModeCharDevice != 0, 0
}
