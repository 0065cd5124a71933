package outfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists a folder, to see that no temporary file is left behind.
func entries(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

func TestWriteNewAndReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "one" {
		t.Errorf("got %q", got)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm()&0o600 != 0o600 {
		t.Errorf("mode %v, want readable and writable by the owner", fi.Mode())
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, path); got != "two" {
		t.Errorf("got %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the replaced file's 0640", fi.Mode())
	}
	if got := entries(t, dir); got != "out.txt" {
		t.Errorf("folder holds %q, want only out.txt", got)
	}
}

// A failed write leaves no file, and an existing file as it was.
func TestWriteFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	boom := errors.New("boom")
	failing := func(w io.Writer) error {
		io.WriteString(w, "partial")
		return boom
	}
	fresh := filepath.Join(dir, "fresh.txt")
	if err := Write(fresh, failing); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed write left %s (%v)", fresh, err)
	}
	old := filepath.Join(dir, "old.txt")
	os.WriteFile(old, []byte("precious"), 0o644)
	err := Write(old, failing)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != old {
		t.Errorf("err = %#v, want a PathError naming %s", err, old)
	}
	if got := readString(t, old); got != "precious" {
		t.Errorf("a failed write changed the old file to %q", got)
	}
	if got := entries(t, dir); got != "old.txt" {
		t.Errorf("folder holds %q, want only old.txt", got)
	}
}

// A panic in the writer leaves no temporary file behind.
func TestWritePanic(t *testing.T) {
	dir := t.TempDir()
	func() {
		defer func() { recover() }()
		Write(filepath.Join(dir, "x"), func(io.Writer) error { panic("boom") })
	}()
	if got := entries(t, dir); got != "" {
		t.Errorf("folder holds %q after a panic", got)
	}
}

// A symbolic link is followed: the target is replaced, the link stays.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink("target.txt", link); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if got := readString(t, target); got != "new" {
		t.Errorf("target holds %q", got)
	}
}

// A device is written in place (it cannot be renamed over).
func TestWriteDevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip(err)
	}
	if err := WriteFile(os.DevNull, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("%s is now a regular file!", os.DevNull)
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	for _, path := range []string{dir, filepath.Join(dir, "missing", "x.txt")} {
		err := WriteFile(path, []byte("x"))
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Path != path {
			t.Errorf("WriteFile(%s) = %v, want a PathError naming it", path, err)
		}
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "d.json")
	os.WriteFile(in, []byte("{}"), 0o644)
	hard := filepath.Join(dir, "hard.json")
	os.Link(in, hard)
	soft := filepath.Join(dir, "soft.json")
	os.Symlink("d.json", soft)
	rel, _ := filepath.Rel(mustGetwd(t), in)
	type add struct {
		what, path string
		output     bool
	}
	tests := []struct {
		name string
		adds []add
		want string // the error, "" for none
	}{
		{"distinct", []add{{"PROGRAM", in, false}, {"OUT", dir + "/x.v", true}, {"--testbench", dir + "/tb.v", true}}, ""},
		{"two outputs", []add{{"PROGRAM", in, false}, {"OUT", dir + "/x.v", true}, {"--testbench", dir + "/./x.v", true}},
			"the output --testbench and the output OUT are the same file (" + dir + "/x.v and " + dir + "/./x.v)"},
		{"output is input", []add{{"PROGRAM", in, false}, {"OUT", in, true}}, "the output OUT and the input PROGRAM are the same file (" + in + ")"},
		{"relative path", []add{{"-o", rel, true}, {"INPUT", in, false}}, "the output -o and the input INPUT are the same file"},
		{"hard link", []add{{"INPUT", in, false}, {"-o", hard, true}}, "the output -o and the input INPUT are the same file"},
		{"symbolic link", []add{{"INPUT", in, false}, {"-o", soft, true}}, "the output -o and the input INPUT are the same file"},
		{"inputs may repeat", []add{{"--input", in, false}, {"--input", in, false}}, ""},
		{"stdout never collides", []add{{"INPUT", "-", false}, {"-o", "-", true}, {"--params-out", "-", true}}, ""},
		{"devices never collide", []add{{"-o", os.DevNull, true}, {"--params-out", os.DevNull, true}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var fs Files
			var err error
			for _, a := range tc.adds {
				if a.output {
					err = fs.Output(a.what, a.path)
				} else {
					err = fs.Input(a.what, a.path)
				}
				if err != nil {
					break
				}
			}
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			var c *Collision
			if err != nil && !errors.As(err, &c) {
				t.Errorf("err is %T, want *Collision", err)
			}
		})
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
