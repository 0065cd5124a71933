// Package kernelrun is otir-run's command-line driver for the reference
// executor: it reads an .otir file, binds --arg values (.npy files or
// literals) to the kernel's arguments, runs the kernel with
// github.com/otir-dev/otir/backend/exec and writes the arguments it changed.
// It sits at the command layer because it needs the parser; the executor
// itself runs a parsed module and does not.
package kernelrun

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/cmd/internal/frontdoor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/ir"
)

// FileRun is one `otir-run` invocation:
//
//	otir-run kernel.otir [--kernel NAME] --arg a=a.npy --arg n=42 --out-dir DIR [--print] [--check-races]
type FileRun struct {
	// Path is the .otir file.
	Path string
	// Kernel names the kernel to run ("" for a file's only kernel).
	Kernel string
	// Args bind arguments by name: "NAME=file.npy" reads a .npy array;
	// "NAME=42" (or true, false, 1.5, nan, inf) is a scalar, or fills a
	// whole tile; "NAME=[1, 2, 3, 4]" lists a tile's elements in row-major
	// order (brackets only group). NAME is the argument's source name, or
	// argN for an unnamed one. A #global argument not given starts as zeros;
	// a scalar must be given.
	Args []string
	// OutDir, if set, receives NAME.npy for each #global argument the kernel
	// writes.
	OutDir string
	// Print writes each such argument to stdout as "%NAME = dense<...> : T".
	Print bool
	// Options configures the run (CheckRaces for --check-races).
	Options exec.Options
	// MaxInputBytes bounds the size of the file (0: readlimit.Default).
	MaxInputBytes int64
}

// ArgError is a bad --arg on the command line (not NAME=VALUE, an unknown
// or repeated name, a literal that is not a value of the argument): a usage
// error, not an error in an input file.
type ArgError struct{ Err error }

func (e *ArgError) Error() string { return e.Err.Error() }
func (e *ArgError) Unwrap() error { return e.Err }

func argErrorf(format string, args ...any) error {
	return &ArgError{fmt.Errorf(format, args...)}
}

// ErrReported is returned by RunFile after it has written diagnostics to
// stderr: the caller only needs to exit with a failure status.
var ErrReported = errors.New("errors reported")

// RunFile reads a kernel of an .otir file through the front door (parsed
// and verified) and runs it as the otir-run command does. Diagnostics are rendered to stderr with their
// source lines (and ErrReported returned); other errors (files, arguments)
// are returned for the caller to print.
func RunFile(fr FileRun, stdout, stderr io.Writer) error {
	sm := diag.NewSourceMgr()
	report := func(err error) error {
		var ae *ArgError
		if errors.As(err, &ae) || !frontdoor.Render(stderr, sm, err) {
			return err
		}
		return ErrReported
	}
	m, err := frontdoor.ReadIR(sm, fr.Path, frontdoor.Options{MaxBytes: fr.MaxInputBytes})
	if err != nil {
		return report(err)
	}
	fr.Options.SkipVerify = true // the front door has verified it
	k, err := exec.FindKernel(m, fr.Kernel)
	if err != nil {
		return report(err)
	}
	if fr.Options.MaxSteps == 0 {
		fr.Options.MaxSteps = exec.DefaultMaxSteps
	}
	// Before the arguments are allocated.
	if err := exec.CheckSizes(k, fr.Options); err != nil {
		return report(err)
	}
	params := exec.Params(k)
	args, err := bindArgs(params, fr.Args)
	if err != nil {
		return report(err)
	}
	if fr.OutDir != "" {
		for _, p := range params {
			if p.Global && p.Written {
				if _, err := exec.NpyDtype(ir.ElementType(p.Type)); err != nil {
					return fmt.Errorf("cannot write argument %s to %s.npy: %v", p.Name, p.Name, err)
				}
			}
		}
		if err := fr.checkOutputs(params); err != nil {
			return err
		}
	}
	res, err := exec.Run(m, ir.KernelName(k), args, fr.Options)
	if err != nil {
		return report(err)
	}
	for i, p := range res.Params {
		if !p.Global || !p.Written {
			continue
		}
		if fr.Print {
			fmt.Fprintf(stdout, "%%%s = dense<%s> : %s\n", p.Name, res.Args[i], p.Type)
		}
		if fr.OutDir != "" {
			path := fr.outPath(p)
			if err := writeNpyFile(path, res.Args[i]); err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					path = pe.Path // the directory, if it could not be made
				}
				return report(diag.AboutFile(path, err))
			}
		}
	}
	return nil
}

// outPath is the file of --out-dir that receives argument p.
func (fr FileRun) outPath(p exec.Param) string { return filepath.Join(fr.OutDir, p.Name+".npy") }

// checkOutputs refuses (an *ArgError) to write an argument over the kernel
// file or an .npy file given with --arg.
func (fr FileRun) checkOutputs(params []exec.Param) error {
	var files outfile.Files
	files.Input("KERNEL", fr.Path)
	for _, spec := range fr.Args {
		if name, value, _ := strings.Cut(spec, "="); strings.HasSuffix(value, ".npy") {
			files.Input("--arg "+name, value)
		}
	}
	for _, p := range params {
		if !p.Global || !p.Written {
			continue
		}
		if err := files.Output("--out-dir "+fr.OutDir+" ("+p.Name+")", fr.outPath(p)); err != nil {
			return &ArgError{err}
		}
	}
	return nil
}

func writeNpyFile(path string, b *exec.Buffer) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return outfile.Write(path, func(w io.Writer) error { return exec.WriteNpy(w, b) })
}

// bindArgs turns NAME=VALUE strings into one buffer per parameter.
func bindArgs(params []exec.Param, specs []string) ([]*exec.Buffer, error) {
	byName := map[string]int{}
	for i, p := range params {
		byName[p.Name] = i
	}
	args := make([]*exec.Buffer, len(params))
	for _, spec := range specs {
		name, value, ok := strings.Cut(spec, "=")
		if !ok {
			return nil, argErrorf("argument %q is not NAME=VALUE", spec)
		}
		i, ok := byName[name]
		if !ok {
			var names []string
			for _, p := range params {
				names = append(names, p.Name)
			}
			return nil, argErrorf("the kernel has no argument %q (it has %s)", name, strings.Join(names, ", "))
		}
		if args[i] != nil {
			return nil, argErrorf("argument %s is given twice", name)
		}
		b, err := argValue(params[i], value)
		if err != nil {
			var ae *ArgError
			if errors.As(err, &ae) {
				return nil, argErrorf("argument %s: %v", name, ae.Err)
			}
			var d *diag.Diagnostic
			if errors.As(err, &d) { // an .npy file: "file: error: argument a: ..."
				d.Msg = fmt.Sprintf("argument %s: %s", name, d.Msg)
				return nil, d
			}
			return nil, fmt.Errorf("argument %s: %v", name, err)
		}
		args[i] = b
	}
	for i, p := range params {
		if args[i] != nil {
			continue
		}
		tt, ok := p.Type.(*ir.TileType)
		if !ok || !p.Global {
			return nil, argErrorf("argument %s (%s) is not given (--arg %s=VALUE)", p.Name, p.Type, p.Name)
		}
		args[i] = exec.NewBuffer(tt.Elem, tt.Shape...)
	}
	return args, nil
}

// argValue reads one argument's value: a .npy file or a literal.
func argValue(p exec.Param, value string) (*exec.Buffer, error) {
	elem := ir.ElementType(p.Type)
	var shape []int64
	if tt, ok := p.Type.(*ir.TileType); ok {
		shape = tt.Shape
	}
	if strings.HasSuffix(value, ".npy") {
		f, err := os.Open(value)
		if err != nil {
			return nil, diag.AboutFile(value, err)
		}
		defer f.Close()
		b, err := exec.ReadNpy(f, elem)
		if err != nil {
			return nil, diag.AboutFile(value, err)
		}
		if !slices.Equal(b.Shape, shape) {
			return nil, diag.Errorf(ir.Location{File: value}, "holds a %s array, but the argument is %s", npyShapeText(b.Shape), p.Type)
		}
		return b, nil
	}
	b, err := parseLiteral(value, elem, shape)
	if err != nil {
		return nil, &ArgError{err}
	}
	return b, nil
}

func npyShapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// parseLiteral reads "42", "[1, 2, 3]" or "[[1, 2], [3, 4]]" into a buffer:
// one value without brackets fills the shape; a bracketed list has one value
// per element. true and false are only values of a boolean (i1, u1).
func parseLiteral(text string, elem ir.Type, shape []int64) (*exec.Buffer, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == ' ' })
	b := exec.NewBuffer(elem, shape...)
	bracketed := strings.ContainsAny(text, "[]")
	switch {
	case len(fields) == 0:
		return nil, fmt.Errorf("no value in %q", text)
	case bracketed && len(fields) != b.Len():
		return nil, fmt.Errorf("the list has %s for %s (a single value without brackets fills the tile)", plural(len(fields), "value"), plural(b.Len(), "element"))
	case len(fields) != 1 && len(fields) != b.Len():
		return nil, fmt.Errorf("%s for %s", plural(len(fields), "value"), plural(b.Len(), "element"))
	}
	for i := 0; i < b.Len(); i++ {
		f := fields[0]
		if len(fields) > 1 {
			f = fields[i]
		}
		if (f == "true" || f == "false") && elem != ir.Bool() {
			return nil, fmt.Errorf("%q is a boolean, but the elements are %s", f, elem)
		}
		if _, ok := elem.(*ir.FloatType); ok {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a number", f)
			}
			b.SetFloat(i, v)
			continue
		}
		v, ok := new(big.Int).SetString(f, 0)
		switch {
		case f == "true":
			v, ok = big.NewInt(1), true
		case f == "false":
			v, ok = big.NewInt(0), true
		}
		if !ok {
			return nil, fmt.Errorf("%q is not an integer", f)
		}
		if err := b.SetInt(i, v); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
