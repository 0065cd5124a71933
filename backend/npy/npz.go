package npy

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// NumPy .npz archives (numpy.savez, numpy.savez_compressed): a zip file
// whose members are .npy arrays, member KEY.npy holding the array named
// KEY. The members are read with ReadArray, so an archive is held to the
// same checks as a .npy file; the zip container is the standard library's
// archive/zip (stored and deflated members, zip64), which checks each
// member's size and CRC-32.
//
// Why not codeberg.org/sbinet/npyio (v0.14.0, which has an npz package):
// re-evaluated for the nn payload (issue 18), its .npy reader still panics
// on a header whose keys are in another order than NumPy's and on a huge
// shape, silently ignores trailing bytes after the data, rejects format 3.0,
// and reads only into a Go slice of the file's exact element type (a
// float32 array cannot be read as float64); it also brings in gonum,
// golang.org/x/text and a pickle decoder. The archive layer is a few lines
// on archive/zip, so the project keeps one .npy implementation, this one.

// NPZ is the contents of an .npz archive: its arrays by name, and the
// names in archive order.
type NPZ struct {
	Names  []string
	Arrays map[string]*Array
}

// maxMembers bounds the number of members a reader accepts.
const maxMembers = 1 << 20

// DefaultMaxNPZBytes is the memory an archive's arrays may take together
// by default (ReadNPZ, ReadNPZFile): 1 GiB. Each member counts its header,
// its data bytes and its decoded values (8 bytes an element, 1 a bool).
const DefaultMaxNPZBytes = 1 << 30

// ReadNPZ reads an .npz archive of size bytes from r, its arrays taking at
// most DefaultMaxNPZBytes of memory together (ReadNPZLimit).
func ReadNPZ(r io.ReaderAt, size int64) (*NPZ, error) {
	return ReadNPZLimit(r, size, DefaultMaxNPZBytes)
}

// ReadNPZLimit reads an .npz archive of size bytes from r. Every member
// must be an .npy array (named KEY.npy; KEY may hold '/'); names must be
// unique. Each member's header is read first, and the memory its shape
// declares is taken from maxBytes, the arrays' total, before its data is
// inflated; at most that data is then inflated, more is an error. So a
// small archive that inflates to gigabytes is refused after reading its
// headers.
func ReadNPZLimit(r io.ReaderAt, size, maxBytes int64) (*NPZ, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("not an .npz archive: %v", err)
	}
	if len(zr.File) > maxMembers {
		return nil, fmt.Errorf("archive has %d members, more than %d", len(zr.File), maxMembers)
	}
	z := &NPZ{Arrays: map[string]*Array{}}
	// Deflate expands at most about 1032 times, so an honest archive's
	// members together hold at most about 1032 times its size: members that
	// share compressed data (a zip bomb) claim more.
	limit := uint64(size)*1032 + 1<<20
	var total uint64
	budget := maxBytes
	for _, f := range zr.File {
		key, ok := strings.CutSuffix(f.Name, ".npy")
		if !ok || key == "" {
			return nil, fmt.Errorf("member %q is not an .npy array (KEY.npy)", f.Name)
		}
		if _, dup := z.Arrays[key]; dup {
			return nil, fmt.Errorf("member %q appears twice", f.Name)
		}
		total += f.UncompressedSize64
		if f.UncompressedSize64 > limit || total > limit {
			return nil, fmt.Errorf("member %q: uncompressed size %d is implausible for the archive's size", f.Name, f.UncompressedSize64)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("member %q: %v", f.Name, err)
		}
		a, err := readArray(rc, &budget)
		rc.Close()
		if errors.Is(err, errBudget) {
			return nil, fmt.Errorf("member %q: %v of %d bytes for the archive's arrays together", f.Name, err, maxBytes)
		}
		if err != nil {
			return nil, fmt.Errorf("member %q: %v", f.Name, err)
		}
		z.Names = append(z.Names, key)
		z.Arrays[key] = a
	}
	return z, nil
}

// ReadNPZFile reads the .npz archive at path (ReadNPZ), without reading
// the whole file into memory.
func ReadNPZFile(path string) (*NPZ, error) {
	return ReadNPZFileLimit(path, DefaultMaxNPZBytes)
}

// ReadNPZFileLimit reads the .npz archive at path (ReadNPZLimit).
func ReadNPZFileLimit(path string, maxBytes int64) (*NPZ, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("not an .npz archive: %s is not a regular file", path)
	}
	return ReadNPZLimit(f, st.Size(), maxBytes)
}

// WriteNPZ writes the arrays of z, in the order of z.Names, as an
// uncompressed .npz archive (as numpy.savez writes it).
func WriteNPZ(w io.Writer, z *NPZ) error {
	zw := zip.NewWriter(w)
	seen := map[string]bool{}
	for _, name := range z.Names {
		a, ok := z.Arrays[name]
		if !ok || a == nil {
			return fmt.Errorf("no array named %q", name)
		}
		if name == "" || seen[name] {
			return fmt.Errorf("array name %q is empty or repeated", name)
		}
		seen[name] = true
		var buf bytes.Buffer
		if err := WriteArray(&buf, a); err != nil {
			return fmt.Errorf("array %q: %v", name, err)
		}
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name + ".npy", Method: zip.Store, Modified: time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			return err
		}
		if _, err := fw.Write(buf.Bytes()); err != nil {
			return err
		}
	}
	if len(z.Names) != len(z.Arrays) {
		return errors.New("the archive's Names do not list all its arrays")
	}
	return zw.Close()
}
