package exec

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
)

// errCase is a kernel whose run must fail with a diagnostic at a line, whose
// message contains msg, and with notes at the given lines containing the
// given texts.
type errCase struct {
	name  string
	src   string
	args  func(t *testing.T) []*Buffer
	opts  Options
	line  int
	msg   string
	notes []noteWant
}

type noteWant struct {
	line int
	msg  string
}

const i8x4 = "!otir.tile<4xi8, #global>"

// k4 wraps a body into a kernel of two 4xi8 #global arguments %a and %c.
// The body starts on line 2.
func k4(grid, body string) string {
	return fmt.Sprintf("otir.kernel @k(%%a: %s, %%c: %s) attributes {grid = [%s]} {\n%s  otir.return\n}\n", i8x4, i8x4, grid, body)
}

func args4(t *testing.T) []*Buffer {
	return []*Buffer{ints(t, "4xi8", 1, 2, 3, 4), ints(t, "4xi8", 0, 0, 0, 0)}
}

const (
	wg4   = "!otir.tile<4xi8, #workgroup>"
	priv4 = "!otir.tile<4xi8, #private>"
	tok   = "!otir.token"
)

func errCases() []errCase {
	r := strings.NewReplacer("G4", i8x4, "W4", wg4, "P4", priv4)
	k := func(grid, body string) string { return k4(grid, r.Replace(body)) }
	return []errCase{
		{
			name: "load of a DMA destination before its wait",
			src: k("1", `  %w = otir.alloc() : W4
  %t = otir.dma_copy_async %a, %w : (G4, W4) -> !otir.token
  %v = otir.load %w : W4 -> P4
  otir.wait [%t]
  otir.store %v, %c : P4, G4
`),
			line: 4, msg: "reads element [0] of %w, the destination of an asynchronous copy that is not complete",
			notes: []noteWant{{3, "the copy is started here"}},
		},
		{
			name: "store into a DMA source before its wait",
			src: k("1", `  %w = otir.alloc() : W4
  %z = otir.constant dense<1> : P4
  otir.store %z, %w : P4, W4
  %t = otir.dma_copy_async %w, %c : (W4, G4) -> !otir.token
  %z2 = otir.constant dense<2> : P4
  otir.store %z2, %w : P4, W4
  otir.wait [%t]
`),
			line: 7, msg: "writes element [0] of %w, the source of an asynchronous copy that is not complete",
			notes: []noteWant{{5, "the copy is started here"}},
		},
		{
			name: "second DMA into a pending destination",
			src: k("1", `  %w = otir.alloc() : W4
  %t = otir.dma_copy_async %a, %w : (G4, W4) -> !otir.token
  %t2 = otir.dma_copy_async %c, %w : (G4, W4) -> !otir.token
  otir.wait [%t, %t2]
`),
			line: 4, msg: "writes element [0] of %w, the destination of an asynchronous copy",
			notes: []noteWant{{3, "the copy is started here"}},
		},
		{
			name: "DMA reading a pending destination",
			src: k("1", `  %w = otir.alloc() : W4
  %t = otir.dma_copy_async %a, %w : (G4, W4) -> !otir.token
  %t2 = otir.dma_copy_async %w, %c : (W4, G4) -> !otir.token
  otir.wait [%t, %t2]
`),
			line: 4, msg: "reads element [0] of %w, the destination",
			notes: []noteWant{{3, "the copy is started here"}},
		},
		{
			name: "store into a pending #global destination",
			src: k("1", `  %w = otir.alloc() : W4
  %z = otir.constant dense<1> : P4
  otir.store %z, %w : P4, W4
  %t = otir.dma_copy_async %w, %c : (W4, G4) -> !otir.token
  otir.store %z, %c : P4, G4
  otir.wait [%t]
`),
			line: 6, msg: "writes element [0] of %c, the destination",
			notes: []noteWant{{5, "the copy is started here"}},
		},
		{
			name: "read of uninitialised #workgroup memory",
			src: k("1", `  %w = otir.alloc() : W4
  %v = otir.load %w : W4 -> P4
  otir.store %v, %c : P4, G4
`),
			line: 3, msg: "reads element [0] of %w before anything is written to it",
			notes: []noteWant{{2, "the tile is allocated here"}},
		},
		{
			name: "masked DMA leaves the other elements unwritten",
			src: k("1", `  %w = otir.alloc() : W4
  %m = otir.constant dense<[true, true, false, true]> : !otir.tile<4xi1, #private>
  %t = otir.dma_copy_async %a, %w, %m : (G4, W4, !otir.tile<4xi1, #private>) -> !otir.token
  otir.wait [%t]
  %v = otir.load %w : W4 -> P4
  otir.store %v, %c : P4, G4
`),
			line: 6, msg: "reads element [2] of %w before anything is written to it",
			notes: []noteWant{{2, "the tile is allocated here"}},
		},
		{
			name: "DMA into #global never waited on",
			src: k("1", `  %w = otir.alloc() : W4
  %z = otir.constant dense<1> : P4
  otir.store %z, %w : P4, W4
  %t = otir.dma_copy_async %w, %c : (W4, G4) -> !otir.token
`),
			line: 5, msg: "copies into %c but its token is never waited on",
		},
		{
			name: "division by zero",
			src: k("1", `  %v = otir.load %a : G4 -> P4
  %d = otir.constant dense<[1, 2, 0, 4]> : P4
  %q = otir.div_s %v, %d : P4
  otir.store %q, %c : P4, G4
`),
			line: 4, msg: "'otir.div_s' op division by zero (element [2])",
		},
		{
			name: "remainder by zero in a loop",
			src: k("1", `  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %c4 = otir.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %r = otir.sub %c4, %i : index
    %s = otir.sub %r, %c1 : index
    %q = otir.rem_u %c4, %s : index
  }
`),
			line: 8, msg: "'otir.rem_u' op division by zero",
			notes: []noteWant{{5, "in the iteration where %i = 3"}},
		},
		{
			name: "out-of-bounds dynamic slice",
			src: k("3", `  %pid = otir.program_id axis(0)
  %c2 = otir.constant 2 : index
  %off = otir.mul %pid, %c2 : index
  %g = otir.extract_slice %a[%off] [2] [1] : G4 to !otir.tile<2xi8, #global>
`),
			line: 5, msg: "slice is out of bounds: dynamic offset %off 4, size 2, stride 1 along dimension 0 of size 4",
			notes: []noteWant{{1, "in workgroup program_id = (2) of kernel @k"}},
		},
		{
			name: "negative shift amount",
			src: k("1", `  %v = otir.load %a : G4 -> P4
  %s = otir.constant dense<[1, -1, 0, 0]> : P4
  %r = otir.shl %v, %s : P4
  otir.store %r, %c : P4, G4
`),
			line: 4, msg: "negative shift amount -1 (element [1])",
		},
		{
			name: "race on a #global element",
			src: k("4", `  %pid = otir.program_id axis(0)
  %p = otir.cast %pid : index -> i8
  %z = otir.constant dense<0> : P4
  %v = otir.add %z, %p : (P4, i8) -> P4
  otir.store %v, %c : P4, G4
`),
			opts: Options{CheckRaces: true},
			line: 6, msg: "race: the final value of %c[0] depends on the order in which workgroups run: 3 in row-major order, 0 in reversed order",
			notes: []noteWant{{6, "written last here by workgroup [3] in row-major order"}, {6, "written last here by workgroup [0] in reversed order"}},
		},
		{
			name: "step limit",
			src: k("1", `  %c0 = otir.constant 0 : index
  %c1 = otir.constant 1 : index
  %n = otir.constant 1000000 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = otir.add %i, %c1 : index
  }
`),
			opts: Options{MaxSteps: 100},
			line: 5, msg: "exceeds its limit of 100 steps",
		},
		{
			name: "argument of the wrong shape",
			src:  k("1", ""),
			args: func(t *testing.T) []*Buffer { return []*Buffer{ints(t, "2xi8", 1, 2), ints(t, "4xi8", 0, 0, 0, 0)} },
			line: 1, msg: "argument %a of type !otir.tile<4xi8, #global> is given a 2 buffer of i8",
		},
		{
			name: "argument count",
			src:  k("1", ""),
			args: func(t *testing.T) []*Buffer { return []*Buffer{ints(t, "4xi8", 1, 2, 3, 4)} },
			line: 1, msg: "kernel @k takes 2 arguments, 1 given",
		},
	}
}

func TestErrors(t *testing.T) {
	for _, c := range errCases() {
		t.Run(c.name, func(t *testing.T) {
			args := args4
			if c.args != nil {
				args = c.args
			}
			d := runErr(t, parseModule(t, c.src), c.opts, args(t)...)
			checkDiag(t, d, c)
		})
	}
}

func checkDiag(t *testing.T, d *diag.Diagnostic, c errCase) {
	t.Helper()
	text := renderErr(d)
	if d.Loc.Line != c.line || !strings.Contains(d.Msg, c.msg) {
		t.Fatalf("got\n%s\nwant line %d and message containing %q", text, c.line, c.msg)
	}
	if len(d.Notes) < len(c.notes) {
		t.Fatalf("got\n%s\nwant %d notes", text, len(c.notes))
	}
	for i, n := range c.notes {
		if d.Notes[i].Loc.Line != n.line || !strings.Contains(d.Notes[i].Msg, n.msg) {
			t.Fatalf("got\n%s\nwant note %d at line %d containing %q", text, i, n.line, n.msg)
		}
	}
}

// TestVerifierErrorsComeFirst: an ill-formed module is reported by the
// verifier (a diag.List) before anything runs.
func TestVerifierErrorsComeFirst(t *testing.T) {
	m := parseModule(t, k4("1", `  %v = otir.load %a : `+i8x4+` -> `+wg4+`
`))
	_, err := Run(m, "k", args4(t), Options{})
	if _, ok := err.(diag.List); !ok {
		t.Fatalf("got %T %v, want the verifier's diag.List", err, err)
	}
}

func TestKernelSelection(t *testing.T) {
	src := k4("1", "") + strings.Replace(k4("1", ""), "@k", "@other", 1)
	m := parseModule(t, src)
	if _, err := Run(m, "", args4(t), Options{}); err == nil || !strings.Contains(err.Error(), "has 2 kernels (@k, @other); name one") {
		t.Fatalf("got %v", err)
	}
	if _, err := Run(m, "nope", args4(t), Options{}); err == nil || !strings.Contains(err.Error(), "no kernel @nope") {
		t.Fatalf("got %v", err)
	}
	if _, err := Run(m, "other", args4(t), Options{}); err != nil {
		t.Fatal(err)
	}
}
