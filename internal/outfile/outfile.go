// Package outfile writes the output files of the commands so that nothing
// is lost or overwritten by surprise:
//
//   - Write and WriteFile write to a temporary file in the destination's
//     folder and rename it over the destination only when everything was
//     written, so a failed run leaves no partial or empty file, and an
//     existing file is untouched when the run fails;
//   - Files refuses an output path that names the same file as another
//     output or an input of the same run (same cleaned absolute path, or
//     os.SameFile when both exist: symbolic and hard links count).
//
// "-" (standard input or output) is never a file here.
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path as Write does.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write creates or replaces the file path with what write writes. The data
// goes to a temporary file beside path (same folder, so the final rename is
// atomic), which replaces path only if write and the close succeed;
// otherwise it is removed and path is left as it was. A new file gets mode
// 0666 less the umask, as os.Create gives it; a replaced file keeps its
// mode. A symbolic link is followed: its target is replaced, the link
// stays. A destination that exists and is not a regular file (/dev/null, a
// named pipe) is written in place, since it cannot be replaced, and so is
// an existing file in a folder where no file may be created. A file with
// several hard links is replaced by a new one under this name (the other
// names keep the old contents). Errors are *fs.PathError naming path.
func Write(path string, write func(io.Writer) error) error {
	target, perm, regular, err := destination(path)
	if err != nil {
		return err
	}
	if !regular {
		return writeInPlace(path, write)
	}
	f, tmp, err := createTemp(target)
	if errors.Is(err, fs.ErrPermission) && perm != 0 {
		// A file we may write in a folder we may not: in place, as
		// os.Create would (without the guarantee for a failed run).
		return writeInPlace(path, write)
	}
	if err != nil {
		return &fs.PathError{Op: "open", Path: path, Err: unwrapPath(err)} // as os.Create
	}
	renamed := false
	defer func() {
		if !renamed { // a failure, or a panic in write
			f.Close()
			os.Remove(tmp)
		}
	}()
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && perm != 0 {
		err = os.Chmod(tmp, perm) // the replaced file's mode, beyond the umask
	}
	if err == nil {
		err = os.Rename(tmp, target)
		renamed = err == nil
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return &fs.PathError{Op: pe.Op, Path: path, Err: pe.Err}
		}
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// destination resolves path: the file to replace (a symbolic link's
// target), the mode to keep (0 for a new file), and whether it is (or will
// be) a regular file.
func destination(path string) (target string, perm fs.FileMode, regular bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new file, or a dangling link: os.Create would follow it.
		if t, lerr := os.Readlink(path); lerr == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(path), t)
			}
			return t, 0, true, nil
		}
		return path, 0, true, nil
	case err != nil:
		return "", 0, false, err
	case fi.IsDir():
		return "", 0, false, &fs.PathError{Op: "write", Path: path, Err: errors.New("is a directory")}
	case !fi.Mode().IsRegular():
		return path, 0, false, nil
	}
	target, err = filepath.EvalSymlinks(path)
	if err != nil {
		return "", 0, false, err
	}
	return target, fi.Mode().Perm(), true, nil
}

// writeInPlace writes a destination that is not a regular file.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "write", Path: path, Err: err}
		}
	}
	return err
}

// createTemp creates a new file beside target, named after it (hidden, with
// a random suffix), with mode 0666 less the umask.
func createTemp(target string) (*os.File, string, error) {
	dir, base := filepath.Split(target)
	for range 100 {
		var b [6]byte
		rand.Read(b[:])
		tmp := filepath.Join(dir, "."+base+".tmp-"+hex.EncodeToString(b[:]))
		f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, tmp, err
	}
	return nil, "", fmt.Errorf("cannot create a temporary file in %s", dir)
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
