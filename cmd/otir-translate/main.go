// Command otir-translate translates models from other formats into otir's
// text (docs/nn.md). Today it imports ONNX models as nn graphs:
//
//	otir-translate --import-onnx model.onnx -o model.mlir --params-out model.npz
//
// The graph (one nn.graph) is written as MLIR text, its parameters as an
// .npz payload that otir-run --params reads. "-" reads the model from
// standard input; -o defaults to standard output.
package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/otir-dev/otir/backend/npy"
	"github.com/otir-dev/otir/backend/onnximport"
	"github.com/otir-dev/otir/cmd/internal/cliargs"
	"github.com/otir-dev/otir/cmd/internal/crash"
	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/internal/outfile"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/ir"
)

// Exit codes: 0 success, 1 an error in the input (a model that cannot be
// read or translated, an output that cannot be written), 2 bad usage.
const (
	exitError = 1
	exitUsage = 2
)

func main() {
	defer crash.Guard("otir-translate")
	os.Exit(mainCode(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a problem with the command line (exit 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// inputError is a problem with a file (exit 1), printed as a diagnostic
// about it.
type inputError struct{ *diag.Diagnostic }

func (e inputError) Error() string { return e.Diagnostic.Error() }

func fileErr(path string, err error) error {
	if path == "-" {
		path = "<stdin>"
	}
	return inputError{diag.AboutFile(path, err)}
}

// mainCode runs otir-translate and returns its exit code.
func mainCode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	app := newApp(stdin, stdout, stderr)
	args, err := cliargs.Reorder(args, 1, app.Flags)
	if err == nil {
		err = app.Run(args)
	}
	if err == nil {
		return 0
	}
	var ie inputError
	if errors.As(err, &ie) {
		var sm *diag.SourceMgr // a binary model has no lines to quote
		sm.Render(stderr, ie.Diagnostic)
		return exitError
	}
	fmt.Fprintf(stderr, "otir-translate: %v\n", err)
	return exitUsage
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:      "otir-translate",
		Usage:     "translate models into otir's text (ONNX to nn graphs)",
		UsageText: "otir-translate --import-onnx MODEL.onnx [-o GRAPH.mlir] [--params-out PARAMS.npz] [--graph-name NAME]",
		Description: "--import-onnx reads an ONNX model as torch.onnx.export writes it (opsets " +
			"6 to 17, static shapes), QONNX models included, and writes an nn graph (MLIR text) and its parameters (.npz, " +
			"the payload otir-run --params reads). MODEL \"-\" is standard input. Supported operators: " +
			strings.Join(onnximport.Operators(), ", ") + "; QONNX's " + strings.Join(onnximport.QONNXOperators(), ", ") +
			" (domains " + strings.Join(onnximport.QONNXDomains(), ", ") + "), and " + strings.Join(onnximport.ChannelsLastOperators(), ", ") +
			" of " + onnximport.ChannelsLastDomain + " (channels-last tensors). See docs/nn.md.\n" +
			"Exit status: 0 success, 1 an error in the model or a file (naming the node and operator), 2 bad usage, 3 an internal error (a bug: please report it).",
		HideHelpCommand: true,
		Reader:          stdin,
		Writer:          stdout,
		ErrWriter:       stderr,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "import-onnx", Usage: "translate an ONNX model into an nn graph"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Value: "-", Usage: "the graph's `FILE` (MLIR text; - is standard output)"},
			&cli.StringFlag{Name: "params-out", Usage: "write the parameters (initializers and constants) to `FILE`, an .npz; needed when the model has any"},
			cliargs.Int64In(&cli.Int64Flag{Name: "max-input-bytes", Value: readlimit.Default, Usage: "read at most `N` bytes of the model (a larger or endless input is an error; protobuf allows up to 2 GiB)"}, 1, math.MaxInt64, ""),
			&cli.StringFlag{Name: "graph-name", Usage: "the graph's symbol `NAME` (default: the ONNX graph's name when it is an identifier, else main)"},
		},
		Action: translate,
	}
	app.OnUsageError = func(_ *cli.Context, err error, _ bool) error { return usageError{err} }
	return app
}

func translate(c *cli.Context) error {
	if !c.Bool("import-onnx") {
		return usagef("say what to translate: --import-onnx (the only translation today)")
	}
	if c.NArg() != 1 {
		return usagef("expected one model file (or - for standard input), got %d arguments", c.NArg())
	}
	path := c.Args().First()
	if err := checkOutputs(path, c.String("output"), c.String("params-out")); err != nil {
		return err
	}
	data, err := readModel(path, c.App.Reader, c.Int64("max-input-bytes"))
	if err != nil {
		return fileErr(path, err)
	}
	name := path
	if path == "-" {
		name = "<stdin>"
	}
	res, err := onnximport.Import(data, name, onnximport.Options{GraphName: c.String("graph-name")})
	if err != nil {
		return fileErr(path, err)
	}
	paramsOut := c.String("params-out")
	if paramsOut == "" && len(res.Payload.Names) > 0 {
		return usagef("the model has %s; --params-out FILE.npz writes them", diag.Plural(len(res.Payload.Names), "parameter array"))
	}
	if paramsOut != "" {
		if err := writeFile(paramsOut, c.App.Writer, func(w io.Writer) error { return npy.WriteNPZ(w, res.Payload) }); err != nil {
			return err
		}
	}
	return writeFile(c.String("output"), c.App.Writer, func(w io.Writer) error {
		return ir.Print(w, res.Module, ir.PrintOptions{})
	})
}

// checkOutputs refuses outputs that would overwrite the model or each
// other.
func checkOutputs(model, output, paramsOut string) error {
	var files outfile.Files
	files.Input("MODEL", model)
	err := files.Output("-o", output)
	if err == nil {
		err = files.Output("--params-out", paramsOut)
	}
	if err != nil {
		return usageError{err}
	}
	return nil
}

// readModel reads the model file ("-": stdin), at most max bytes.
func readModel(path string, stdin io.Reader, max int64) ([]byte, error) {
	if path == "-" {
		return readlimit.All(stdin, max, readlimit.Flag)
	}
	return readlimit.File(path, max, readlimit.Flag)
}

// writeFile writes a file ("-": stdout) with write; a file is replaced
// only when it is written completely (outfile.Write).
func writeFile(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "-" {
		return write(stdout)
	}
	err := outfile.Write(path, func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		if err := write(bw); err != nil {
			return err
		}
		return bw.Flush()
	})
	if err != nil {
		return fileErr(path, err)
	}
	return nil
}
