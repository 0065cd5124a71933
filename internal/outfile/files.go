package outfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Files are the files of one run, each named by the flag or argument that
// gives it ("-o", "--params-out", "PROGRAM"), so that an output that would
// overwrite another output or an input is refused before anything is
// written. The zero value is ready to use.
type Files struct {
	seen []file
}

type file struct {
	what, path, abs string
	output          bool
}

// Collision is an output that names the same file as another output or an
// input of the run: a usage error.
type Collision struct {
	// Output names the output (flag and path), Other the earlier file.
	Output, OutputPath string
	Other, OtherPath   string
	// OtherIsInput: the earlier file is an input.
	OtherIsInput bool
}

func (c *Collision) Error() string {
	kind := "output"
	if c.OtherIsInput {
		kind = "input"
	}
	same := c.OutputPath
	if c.OtherPath != c.OutputPath {
		same = fmt.Sprintf("%s and %s", c.OtherPath, c.OutputPath)
	}
	return fmt.Sprintf("the output %s and the %s %s are the same file (%s): give them different names", c.Output, kind, c.Other, same)
}

// Input records an input file of the run ("" and "-" are ignored).
func (fs *Files) Input(what, path string) error { return fs.add(what, path, false) }

// Output records an output file of the run; it fails with a *Collision if
// the file is one recorded before ("" and "-" are ignored). A command
// records its inputs and outputs before it writes anything, and each file
// it writes into an output folder as it comes.
func (fs *Files) Output(what, path string) error { return fs.add(what, path, true) }

func (fs *Files) add(what, path string, output bool) error {
	if path == "" || path == "-" {
		return nil
	}
	f := file{what: what, path: path, abs: absolute(path), output: output}
	for _, g := range fs.seen {
		if (output || g.output) && same(f, g) {
			c := &Collision{Output: f.what, OutputPath: f.path, Other: g.what, OtherPath: g.path, OtherIsInput: !g.output}
			if !output { // an input recorded after an output
				c = &Collision{Output: g.what, OutputPath: g.path, Other: f.what, OtherPath: f.path, OtherIsInput: true}
			}
			return c
		}
	}
	fs.seen = append(fs.seen, f)
	return nil
}

func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// same reports whether two paths name one file: the same cleaned absolute
// path, or the same file on disk (through a symbolic or hard link). A
// device or a pipe (/dev/null, /dev/stdout) is never the same file: writing
// it twice loses nothing.
func same(a, b file) bool {
	ai, aerr := os.Stat(a.path)
	bi, berr := os.Stat(b.path)
	if aerr == nil && !ai.Mode().IsRegular() || berr == nil && !bi.Mode().IsRegular() {
		return false
	}
	return a.abs == b.abs || aerr == nil && berr == nil && os.SameFile(ai, bi)
}
