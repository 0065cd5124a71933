package optmain

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/backend/rtl"
	"github.com/otir-dev/otir/cmd/internal/frontdoor"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/ir/dot"
	"github.com/otir-dev/otir/lower/dais"
)

// emitFormats are the values of --emit: the file formats a dais.program is
// written in (alir-* are ALIR spec 2, alir-v4-* spec 4; verilog and vhdl
// are hardware designs, backend/rtl, which take an option:
// verilog,latency-cutoff=C pipelines).
var emitFormats = []string{"alir-json", "alir-json-gz", "alir-bytecode", "alir-v4-json", "alir-v4-json-gz", "alir-v4-bytecode", "dais-binary", "verilog", "vhdl", "dot"}

// rtlEmit splits a hardware --emit value into its language and latency
// cutoff; ok is false for the other formats.
func rtlEmit(format string) (lang rtl.Language, cutoff float64, ok bool, err error) {
	base, opt, hasOpt := strings.Cut(format, ",")
	switch base {
	case "verilog":
		lang = rtl.Verilog
	case "vhdl":
		lang = rtl.VHDL
	default:
		return 0, 0, false, nil
	}
	if hasOpt {
		v, found := strings.CutPrefix(opt, "latency-cutoff=")
		if !found {
			return lang, 0, true, fmt.Errorf("unknown --emit=%s option '%s' (want latency-cutoff=C)", base, opt)
		}
		if cutoff, err = strconv.ParseFloat(v, 64); err != nil || cutoff < 0 || math.IsInf(cutoff, 0) || math.IsNaN(cutoff) {
			return lang, 0, true, fmt.Errorf("--emit=%s: latency-cutoff '%s' is not a number >= 0", base, v)
		}
	}
	return lang, cutoff, true, nil
}

// checkEmit validates --emit and --import-alir against the other flags.
func checkEmit(cfg *config) error {
	if cfg.emit != "" {
		_, _, ok, err := rtlEmit(cfg.emit)
		if err != nil {
			return usageErrorf("%v", err)
		}
		for _, f := range emitFormats {
			ok = ok || f == cfg.emit
		}
		if !ok {
			return usageErrorf("unknown --emit format '%s' (want one of %s)", cfg.emit, strings.Join(emitFormats, ", "))
		}
		if cfg.output == "-" && cfg.emit != "dot" {
			return usageErrorf("--emit=%s needs an output file: -o FILE", cfg.emit)
		}
	}
	if (cfg.emit != "" || cfg.importALIR != "") && cfg.split {
		return usageErrorf("--split-input-file cannot be combined with --emit or --import-alir")
	}
	if cfg.importALIR != "" && cfg.input != "-" {
		return usageErrorf("--import-alir reads its own file; do not also give an input file (%s)", cfg.input)
	}
	return nil
}

// importALIR reads an ALIR or DAIS program file (ALIR JSON or JSON.gz, ALIR
// bytecode, DAIS binary: detected by content) as a module holding one
// dais.program named after the file.
func importALIR(path string, max int64) (*ir.Module, error) {
	// A program file has no source lines: errors are "file: error: ...".
	fileLoc := ir.Location{File: path}
	p, _, err := frontdoor.ReadProgram(path, alir.FormatAuto, frontdoor.Options{MaxBytes: max})
	if err != nil {
		var d *diag.Diagnostic
		if errors.As(err, &d) {
			d.Msg = "cannot import the program: " + strings.TrimPrefix(d.Msg, "cannot open the file: ")
		}
		return nil, err
	}
	name := filepath.Base(path)
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	prog, err := dais.FromALIR(p, name)
	if err != nil {
		return nil, diag.Errorf(fileLoc, "cannot import the program: %v", err)
	}
	// Every imported op is located in the file, so that a verifier error
	// (a program the reader accepts but dais rejects) names it.
	prog.Walk(func(op *ir.Operation) bool {
		if op.Loc.File == "" {
			op.Loc = fileLoc
		}
		return true
	})
	m := ir.NewModule(ir.Location{File: path, Line: 1, Col: 1})
	m.Body().Append(prog)
	return m, nil
}

// writeJSON writes p to path as ALIR JSON (format alir-json, alir-v4-json
// or either with -gz), streamed: the document is never held whole.
func writeJSON(path, format string, p *alir.Program) error {
	write := alir.WriteJSON
	if strings.HasPrefix(format, "alir-v4-") {
		write = alir.WriteJSONV4
	}
	var encodeErr error
	err := outfile.Write(path, func(w io.Writer) error {
		fw := &firstError{w: w}
		dst := io.Writer(fw)
		var zw *gzip.Writer
		if strings.HasSuffix(format, "-gz") {
			zw = gzip.NewWriter(fw)
			dst = zw
		}
		err := write(dst, p)
		if err == nil && zw != nil {
			err = zw.Close()
		}
		if err != nil && fw.err == nil {
			encodeErr = err // not the file's
		}
		return err
	})
	if encodeErr != nil {
		return fmt.Errorf("cannot encode the program as %s: %v", format, encodeErr)
	}
	if err != nil {
		return &writeError{path, err}
	}
	return nil
}

// firstError is a writer that remembers the first error of w.
type firstError struct {
	w   io.Writer
	err error
}

func (f *firstError) Write(b []byte) (int, error) {
	n, err := f.w.Write(b)
	if err != nil && f.err == nil {
		f.err = err
	}
	return n, err
}

// emit writes the module's only dais.program to path in the given format,
// or (dot) the whole module as a Graphviz graph to path or ("-") stdout.
func emit(m *ir.Module, format, path string, stdout io.Writer) error {
	if format == "dot" {
		if err := dais.MaterializeAll(m); err != nil {
			return err
		}
		var b bytes.Buffer
		if err := dot.Write(&b, m); err != nil {
			return err
		}
		if path == "-" {
			_, err := stdout.Write(b.Bytes())
			return err
		}
		if err := outfile.WriteFile(path, b.Bytes()); err != nil {
			return &writeError{path, err}
		}
		return nil
	}
	progs := dais.Programs(m)
	if len(progs) != 1 {
		return fmt.Errorf("--emit=%s needs exactly one dais.program after the pipeline, found %d (run --lower-tiles on a module with one kernel)", format, len(progs))
	}
	// The program as it is held (dense after lower-tiles and the dais
	// passes), checked, written without making its ops.
	p, err := dais.ProgramOf(progs[0])
	if err != nil {
		return err
	}
	var data []byte
	if lang, cutoff, ok, _ := rtlEmit(format); ok {
		name, _ := progs[0].StringAttr("sym_name")
		d, err := rtl.Build(p, rtl.Options{Name: name, LatencyCutoff: cutoff})
		if err != nil {
			return fmt.Errorf("cannot write the program as %s: %v", lang, err)
		}
		var b bytes.Buffer
		if err := d.Write(&b, lang); err != nil {
			return err
		}
		format, data = "", b.Bytes()
	}
	switch format {
	case "alir-json", "alir-json-gz", "alir-v4-json", "alir-v4-json-gz":
		return writeJSON(path, format, p)
	case "alir-bytecode":
		data, err = alir.EncodeBytecode(p)
	case "alir-v4-bytecode":
		data, err = alir.EncodeBytecodeV4(p)
	case "dais-binary":
		var q *alir.Program
		if q, err = alir.Convert(p, alir.DAIS); err == nil {
			data, err = alir.EncodeDAIS(q)
		}
	}
	if err != nil {
		return fmt.Errorf("cannot encode the program as %s: %v", format, err)
	}
	if err := outfile.WriteFile(path, data); err != nil {
		return &writeError{path, err}
	}
	return nil
}
