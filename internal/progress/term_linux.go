package progress

import (
	"os"
	"syscall"
	"unsafe"
)

// terminal asks the terminal driver (as golang.org/x/term does): f is a
// terminal when it answers TCGETS, which /dev/null, a pipe or a file
// does not.
func terminal(f *os.File) (bool, int) {
	fd := f.Fd()
	var t syscall.Termios
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&t))); errno != 0 {
		return false, 0
	}
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return true, 0
	}
	return true, int(ws.Col)
}
