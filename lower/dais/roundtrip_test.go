package dais

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/parse"
)

// conformance lists the shared ALIR conformance programs.
func conformance(t *testing.T) []string {
	t.Helper()
	files, _ := filepath.Glob("../../../shared/conformance/alir/*/model.*")
	if len(files) == 0 {
		t.Skip("no ../shared/conformance/alir")
	}
	return files
}

// printProgram prints a program op inside a module, as otir-opt does.
func printProgram(t *testing.T, prog *ir.Operation) string {
	t.Helper()
	m := ir.NewModule(ir.Location{})
	m.Body().Append(prog)
	return m.String()
}

// reparse parses text and returns its only dais.program.
func reparse(t *testing.T, text string) *ir.Operation {
	t.Helper()
	m, err := parse.Parse("roundtrip.otir", []byte(text), parse.Options{})
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, head(text))
	}
	ps := Programs(m)
	if len(ps) != 1 {
		t.Fatalf("parsed %d programs", len(ps))
	}
	return ps[0]
}

func head(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}

// sameProgram compares two programs through every encoding.
func sameProgram(t *testing.T, want, got *alir.Program) {
	t.Helper()
	for _, f := range []alir.Format{alir.FormatJSON, alir.FormatBytecode} {
		a, err := alir.Encode(want, f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := alir.Encode(got, f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%v encodings differ", f)
		}
	}
}

// ALIR -> dais -> text -> dais -> ALIR is the identity on the conformance
// programs (the DAIS one after its conversion to ALIR).
func TestRoundTripConformance(t *testing.T) {
	for _, f := range conformance(t) {
		t.Run(filepath.Base(filepath.Dir(f)), func(t *testing.T) {
			p, _, err := alir.ReadFile(f, alir.FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			want, err := alir.Convert(p, alir.ALIR)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := FromALIR(p, "model")
			if err != nil {
				t.Fatal(err)
			}
			direct, err := ToALIR(prog)
			if err != nil {
				t.Fatal(err)
			}
			sameProgram(t, want, direct)
			text := printProgram(t, prog)
			got, err := ToALIR(reparse(t, text))
			if err != nil {
				t.Fatal(err)
			}
			sameProgram(t, want, got)
			// Printing again gives the same text.
			if again := printProgram(t, reparse(t, text)); again != text {
				t.Errorf("print -> parse -> print changed the text")
			}
		})
	}
}

// Random shift-and-add programs round-trip too, and keep their outputs.
func TestRoundTripRandom(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		p := alir.RandomShiftAdd(alir.ShiftAddConfig{Seed: seed, Inputs: 4, Ops: 40, Outputs: 3})
		prog, err := FromALIR(p, "r")
		if err != nil {
			t.Fatal(err)
		}
		got, err := ToALIR(reparse(t, printProgram(t, prog)))
		if err != nil {
			t.Fatal(err)
		}
		sameProgram(t, p, got)
	}
}

// The text form of a small program, written by hand.
func TestTextForm(t *testing.T) {
	b := alir.NewBuilder(alir.ALIR, 2)
	q8 := alir.QInterval{Min: -128, Max: 127, Step: 1}
	x := b.Input(0, q8)
	y := b.Input(1, q8)
	s := b.Sub(x, y, 1, alir.AddQInt(q8, q8, 1, true))
	m := b.Mux(s, x, y, 0, q8)
	b.Output(m, 0, false)
	b.Output(-1, 0, false)
	b.Output(s, 2, true)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	prog, err := FromALIR(p, "small")
	if err != nil {
		t.Fatal(err)
	}
	got := printProgram(t, prog)
	for _, want := range []string{
		`%0 = "dais.input"() {index = 0} : () -> !dais.q<-128, 127, 1>`,
		`%2 = "dais.sub"(%0, %1) {shift = 1} : (!dais.q<-128, 127, 1>, !dais.q<-128, 127, 1>) -> !dais.q<-382, 383, 1>`,
		`%3 = "dais.mux"(%2, %0, %1) {shift = 0}`,
		`"dais.output"(%3, %2) {negs = array<i64: 0, 0, 1>, outputs = array<i64: 0, -1, 1>, shifts = array<i64: 0, 0, 2>}`,
		`{adder_size = -1, carry_size = -1, inp_shifts = array<i64: 0, 0>, sym_name = "small"}`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
}

func TestMain(m *testing.M) { os.Exit(m.Run()) }
