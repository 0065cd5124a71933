package tiles

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
)

// TestWarnDead checks the dead-signal warnings: an output made constant by
// an element-wise op (min of an unsigned value and 0) is reported at that
// op, and so are the inputs that only reach it; without Options.Warn the
// lowering is the same.
func TestWarnDead(t *testing.T) {
	src := `module {
  otir.kernel @k(%x: !otir.tile<2xu4, #global>, %w: !otir.tile<1xi8, #global>, %y: !otir.tile<2xi8, #global>, %y2: !otir.tile<1xi8, #global>) {
    %v = otir.load %x : !otir.tile<2xu4, #global> -> !otir.tile<2xu4, #private>
    %z = otir.constant dense<0> : !otir.tile<2xu4, #private>
    %m = otir.min %v, %z : (!otir.tile<2xu4, #private>, !otir.tile<2xu4, #private>) -> !otir.tile<2xu4, #private>
    %c = otir.cast %m : !otir.tile<2xu4, #private> -> !otir.tile<2xi8, #private>
    %a = otir.load %w : !otir.tile<1xi8, #global> -> !otir.tile<1xi8, #private>
    otir.store %c, %y : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
    otir.store %a, %y2 : !otir.tile<1xi8, #private>, !otir.tile<1xi8, #global>
    otir.return
  }
}`
	want := []string{
		"test.otir:5:5: warning: 2 of the circuit's 3 outputs are constant (y[0], y[1]): the signal stops depending on the inputs here",
		"test.otir:5:5: warning: 2 of the circuit's inputs are unused (x[0], x[1]): no output depends on them; the signal stops here",
	}
	checkWarnings(t, src, want)
	if _, err := lowerText(t, src, Options{}); err != nil {
		t.Errorf("without Warn: %v", err)
	}
}

// TestWarnDeadMatmul checks where a matmul's constant elements die: at the
// matmul for a zero weight column (D1[0, 1]), upstream when it reads a dead
// value (D2, from the min), and at the kernel for an output that never was
// a signal (y3).
func TestWarnDeadMatmul(t *testing.T) {
	src := `module {
  otir.kernel @k(%x: !otir.tile<1x2xu4, #global>, %y1: !otir.tile<1x2xi16, #global>, %y2: !otir.tile<1x1xi16, #global>, %y3: !otir.tile<1xi8, #global>) {
    %v = otir.load %x : !otir.tile<1x2xu4, #global> -> !otir.tile<1x2xu4, #private>
    %z = otir.constant dense<0> : !otir.tile<1x2xu4, #private>
    %m = otir.min %v, %z : (!otir.tile<1x2xu4, #private>, !otir.tile<1x2xu4, #private>) -> !otir.tile<1x2xu4, #private>
    %w1 = otir.constant dense<[[1, 0], [1, 0]]> : !otir.tile<2x2xi8, #private>
    %c1 = otir.constant dense<0> : !otir.tile<1x2xi16, #private>
    %d1 = otir.matmul %v, %w1, %c1 : (!otir.tile<1x2xu4, #private>, !otir.tile<2x2xi8, #private>, !otir.tile<1x2xi16, #private>) -> !otir.tile<1x2xi16, #private>
    %w2 = otir.constant dense<[[1], [2]]> : !otir.tile<2x1xi8, #private>
    %c2 = otir.constant dense<3> : !otir.tile<1x1xi16, #private>
    %d2 = otir.matmul %m, %w2, %c2 : (!otir.tile<1x2xu4, #private>, !otir.tile<2x1xi8, #private>, !otir.tile<1x1xi16, #private>) -> !otir.tile<1x1xi16, #private>
    otir.store %d1, %y1 : !otir.tile<1x2xi16, #private>, !otir.tile<1x2xi16, #global>
    otir.store %d2, %y2 : !otir.tile<1x1xi16, #private>, !otir.tile<1x1xi16, #global>
    %k = otir.constant dense<5> : !otir.tile<1xi8, #private>
    otir.store %k, %y3 : !otir.tile<1xi8, #private>, !otir.tile<1xi8, #global>
    otir.return
  }
}`
	want := []string{
		"test.otir:8:5: warning: 1 of the circuit's 4 outputs is constant (y1[1]): the signal stops depending on the inputs here",
		"test.otir:5:5: warning: 1 of the circuit's 4 outputs is constant (y2[0]): the signal stops depending on the inputs here",
		"test.otir:2:3: warning: 1 of the circuit's 4 outputs is constant (y3[0]): written as a constant, never computed from the inputs",
	}
	checkWarnings(t, src, want)
}

// checkWarnings lowers the kernel of src with Options.Warn and compares the
// warnings with want.
func checkWarnings(t *testing.T, src string, want []string) {
	t.Helper()
	var ws []string
	opts := Options{Warn: func(d *diag.Diagnostic) { ws = append(ws, d.Error()) }}
	if _, err := lowerText(t, src, opts); err != nil {
		t.Fatal(err)
	}
	if strings.Join(ws, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
}
