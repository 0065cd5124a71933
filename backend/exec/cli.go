package exec

import (
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"otir/diag"
	"otir/ir"
	"otir/parse"
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
	Options Options
}

// ErrReported is returned by RunFile after it has written diagnostics to
// stderr: the caller only needs to exit with a failure status.
var ErrReported = errors.New("errors reported")

// RunFile parses, verifies and runs a kernel of an .otir file as the
// otir-run command does. Diagnostics are rendered to stderr with their
// source lines (and ErrReported returned); other errors (files, arguments)
// are returned for the caller to print.
func RunFile(fr FileRun, stdout, stderr io.Writer) error {
	src, err := os.ReadFile(fr.Path)
	if err != nil {
		return err
	}
	sm := diag.NewSourceMgr()
	sm.Add(fr.Path, string(src))
	report := func(err error) error {
		switch d := err.(type) {
		case *diag.Diagnostic:
			sm.Render(stderr, d)
		case diag.List:
			sm.RenderAll(stderr, d)
		default:
			return err
		}
		return ErrReported
	}
	m, err := parse.Parse(fr.Path, src, parse.Options{})
	if err != nil {
		return report(err)
	}
	k, err := FindKernel(m, fr.Kernel)
	if err != nil {
		return report(err)
	}
	params := Params(k)
	args, err := bindArgs(params, fr.Args)
	if err != nil {
		return err
	}
	if fr.OutDir != "" {
		for _, p := range params {
			if p.Global && p.Written {
				if _, err := npyDtype(ir.ElementType(p.Type)); err != nil {
					return fmt.Errorf("cannot write argument %s to %s.npy: %v", p.Name, p.Name, err)
				}
			}
		}
	}
	res, err := Run(m, ir.KernelName(k), args, fr.Options)
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
			if err := writeNpyFile(filepath.Join(fr.OutDir, p.Name+".npy"), res.Args[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

func writeNpyFile(path string, b *Buffer) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := WriteNpy(f, b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// bindArgs turns NAME=VALUE strings into one buffer per parameter.
func bindArgs(params []Param, specs []string) ([]*Buffer, error) {
	byName := map[string]int{}
	for i, p := range params {
		byName[p.Name] = i
	}
	args := make([]*Buffer, len(params))
	for _, spec := range specs {
		name, value, ok := strings.Cut(spec, "=")
		if !ok {
			return nil, fmt.Errorf("argument %q is not NAME=VALUE", spec)
		}
		i, ok := byName[name]
		if !ok {
			var names []string
			for _, p := range params {
				names = append(names, p.Name)
			}
			return nil, fmt.Errorf("the kernel has no argument %q (it has %s)", name, strings.Join(names, ", "))
		}
		if args[i] != nil {
			return nil, fmt.Errorf("argument %s is given twice", name)
		}
		b, err := argValue(params[i], value)
		if err != nil {
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
			return nil, fmt.Errorf("argument %s (%s) is not given (--arg %s=VALUE)", p.Name, p.Type, p.Name)
		}
		args[i] = NewBuffer(tt.Elem, tt.Shape...)
	}
	return args, nil
}

// argValue reads one argument's value: a .npy file or a literal.
func argValue(p Param, value string) (*Buffer, error) {
	elem := ir.ElementType(p.Type)
	var shape []int64
	if tt, ok := p.Type.(*ir.TileType); ok {
		shape = tt.Shape
	}
	if strings.HasSuffix(value, ".npy") {
		f, err := os.Open(value)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		b, err := ReadNpy(f, elem)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", value, err)
		}
		if !sameShape(b.Shape, shape) {
			return nil, fmt.Errorf("%s holds a %s array, but the argument is %s", value, npyShapeText(b.Shape), p.Type)
		}
		return b, nil
	}
	return parseLiteral(value, elem, shape)
}

func npyShapeText(s []int64) string {
	parts := make([]string, len(s))
	for i, d := range s {
		parts[i] = strconv.FormatInt(d, 10)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// parseLiteral reads "42", "[1, 2, 3]" or "[[1, 2], [3, 4]]" into a buffer:
// one value fills the shape, else there is one value per element.
func parseLiteral(text string, elem ir.Type, shape []int64) (*Buffer, error) {
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == '[' || r == ']' || r == ',' || r == ' ' })
	b := NewBuffer(elem, shape...)
	if len(fields) != 1 && len(fields) != b.Len() {
		return nil, fmt.Errorf("%d values for %d elements", len(fields), b.Len())
	}
	for i := 0; i < b.Len(); i++ {
		f := fields[0]
		if len(fields) > 1 {
			f = fields[i]
		}
		if ft, ok := elem.(*ir.FloatType); ok {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("%q is not a number", f)
			}
			b.Floats[i] = roundFloat64(v, ft.Kind)
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
