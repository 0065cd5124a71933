package tiles

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
)

// TestWarnDead checks the dead-signal warnings: an output made constant by
// an element-wise op (min of an unsigned value and 0) is reported at that
// op, an input that only reaches it as unused, and nothing at all without
// Options.Warn.
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
	var ws []string
	opts := Options{Warn: func(d *diag.Diagnostic) { ws = append(ws, d.Error()) }}
	if _, err := lowerText(t, src, opts); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"test.otir:5:5: warning: 2 of the circuit's 3 outputs are constant (y[0], y[1]): the signal stops depending on the inputs here",
		"test.otir:2:3: warning: 2 of the circuit's inputs are unused (x[0], x[1]): no output depends on them",
	}
	if strings.Join(ws, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(ws, "\n"), strings.Join(want, "\n"))
	}
	ws = nil
	if _, err := lowerText(t, src, Options{}); err != nil || len(ws) != 0 {
		t.Errorf("without Warn: %v, %v", err, ws)
	}
}
