package tiles

import (
	"strings"
	"testing"
)

// lowerProgress lowers the only kernel of src and returns its progress
// reports, one line each.
func lowerProgress(t *testing.T, src string) []string {
	t.Helper()
	var got []string
	if _, err := lowerText(t, src, Options{Progress: func(p Progress) { got = append(got, p.String()) }}); err != nil {
		t.Fatal(err)
	}
	return got
}

// Progress is reported per workgroup and per row of a non-constant matmul,
// with the dais ops emitted so far.
func TestProgressWorkgroupsAndRows(t *testing.T) {
	got := lowerProgress(t, `otir.kernel @mm(%A: !otir.tile<2x2xi8, #global>, %C: !otir.tile<2x2xi32, #global>) attributes {grid = [2]} {
  %a = otir.load %A : !otir.tile<2x2xi8, #global> -> !otir.tile<2x2xi8, #private>
  %z = otir.constant dense<0> : !otir.tile<2x2xi32, #private>
  %c = otir.matmul %a, %a, %z : (!otir.tile<2x2xi8, #private>, !otir.tile<2x2xi8, #private>, !otir.tile<2x2xi32, #private>) -> !otir.tile<2x2xi32, #private>
  otir.store %c, %C : !otir.tile<2x2xi32, #private>, !otir.tile<2x2xi32, #global>
  otir.return
}`)
	if len(got) != 6 {
		t.Fatalf("%d reports, want 6:\n%s", len(got), strings.Join(got, "\n"))
	}
	for i, want := range []string{
		"@mm: workgroup 0/2, 0 dais ops",
		"@mm: workgroup 0/2, 4 dais ops, matmul row 0/2",
		"@mm: workgroup 0/2, ",
		"@mm: workgroup 1/2, ",
		"@mm: workgroup 1/2, ",
		"@mm: workgroup 1/2, ",
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("report %d is %q, want %q...", i, got[i], want)
		}
	}
	if !strings.HasSuffix(got[5], "matmul row 1/2") {
		t.Errorf("last report %q, want matmul row 1/2", got[5])
	}
}

// Each constant-matrix product is reported before lower/cmvm solves it,
// with its size (outputs x inputs).
func TestProgressConstantProducts(t *testing.T) {
	got := lowerProgress(t, `otir.kernel @cm(%X: !otir.tile<3x2xi8, #global>, %Y: !otir.tile<2x2xi32, #global>) {
  %w = otir.constant dense<[[3, 5, 7], [11, 13, 17]]> : !otir.tile<2x3xi8, #private>
  %x = otir.load %X : !otir.tile<3x2xi8, #global> -> !otir.tile<3x2xi8, #private>
  %z = otir.constant dense<0> : !otir.tile<2x2xi32, #private>
  %y = otir.matmul %w, %x, %z : (!otir.tile<2x3xi8, #private>, !otir.tile<3x2xi8, #private>, !otir.tile<2x2xi32, #private>) -> !otir.tile<2x2xi32, #private>
  otir.store %y, %Y : !otir.tile<2x2xi32, #private>, !otir.tile<2x2xi32, #global>
  otir.return
}`)
	want := []string{
		"@cm: 0 dais ops",
		"@cm: 6 dais ops, cmvm 0/2, solving 2x3",
	}
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] ||
		!strings.HasPrefix(got[2], "@cm: ") || !strings.HasSuffix(got[2], "cmvm 1/2, solving 2x3") {
		t.Errorf("reports:\n%s\nwant\n%s\n... cmvm 1/2, solving 2x3", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// Without Options.Progress nothing is reported (and nothing breaks).
func TestProgressOff(t *testing.T) {
	if _, err := lowerText(t, `otir.kernel @k(%c: !otir.tile<2xi8, #global>) {
  %z = otir.constant dense<[0, 5]> : !otir.tile<2xi8, #private>
  otir.store %z, %c : !otir.tile<2xi8, #private>, !otir.tile<2xi8, #global>
  otir.return
}`, Options{}); err != nil {
		t.Fatal(err)
	}
}

// A grid whose workgroups multiply the same constant matrix by inputs of
// the same ranges solves the product once: the later workgroups reuse the
// graph (lowerer.solve), and the program is the same.
func TestIdenticalProductsSolvedOnce(t *testing.T) {
	src := `otir.kernel @cm(%X: !otir.tile<3x4xi8, #global>, %Y: !otir.tile<2x4xi32, #global>) attributes {grid = [4]} {
  %pid = otir.program_id axis(0)
  %w = otir.constant dense<[[3, 5, 7], [11, 13, 17]]> : !otir.tile<2x3xi8, #private>
  %xs = otir.extract_slice %X[0, %pid] [3, 1] [1, 1] : !otir.tile<3x4xi8, #global> to !otir.tile<3x1xi8, #global>
  %x = otir.load %xs : !otir.tile<3x1xi8, #global> -> !otir.tile<3x1xi8, #private>
  %z = otir.constant dense<0> : !otir.tile<2x1xi32, #private>
  %y = otir.matmul %w, %x, %z : (!otir.tile<2x3xi8, #private>, !otir.tile<3x1xi8, #private>, !otir.tile<2x1xi32, #private>) -> !otir.tile<2x1xi32, #private>
  %ys = otir.extract_slice %Y[0, %pid] [2, 1] [1, 1] : !otir.tile<2x4xi32, #global> to !otir.tile<2x1xi32, #global>
  otir.store %y, %ys : !otir.tile<2x1xi32, #private>, !otir.tile<2x1xi32, #global>
  otir.return
}`
	solves := 0
	onSolve = func() { solves++ }
	defer func() { onSolve = nil }()
	if _, err := lowerText(t, src, Options{}); err != nil {
		t.Fatal(err)
	}
	if solves != 1 {
		t.Fatalf("4 workgroups with the same constant product solved it %d times, want 1", solves)
	}
}
