package lit

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	src := "// RUN: echo a \\\n//  RUN:   | cat\n# RUN: ignored in .otir\n// XFAIL: *\n// REQUIRES: shared, mlir-opt\n// UNSUPPORTED: x\n// RUN: true\n"
	tst, err := Parse("/t/a.otir", "a.otir", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"echo a    | cat", "true"}; !reflect.DeepEqual(tst.Run, want) {
		t.Errorf("Run = %q, want %q", tst.Run, want)
	}
	if !reflect.DeepEqual(tst.XFail, []string{"*"}) || !reflect.DeepEqual(tst.Requires, []string{"shared", "mlir-opt"}) || !reflect.DeepEqual(tst.Unsupported, []string{"x"}) {
		t.Errorf("directives: %+v", tst)
	}
	for _, bad := range []string{"// nothing\n", "// RUN: a \\\n", "// RUN: a \\\nplain\n"} {
		if _, err := Parse("/t/b.otir", "b.otir", []byte(bad)); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
	if tst, err := Parse("/t/c.test", "c.test", []byte("# RUN: x\n")); err != nil || len(tst.Run) != 1 {
		t.Errorf("# RUN in .test: %v %v", tst, err)
	}
}

func TestSubstitute(t *testing.T) {
	got := Substitute("cat %s %S %p %t %T %% %q 100%", "/d/x.otir", "/tmp/u")
	want := "cat /d/x.otir /d /d /tmp/u/x.otir.tmp /tmp/u % %q 100%"
	if got != want {
		t.Errorf("Substitute = %q, want %q", got, want)
	}
}

func TestDiscover(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.otir", "sub/b.test", "sub/c.txt", "Inputs/d.otir", "testdata/e.otir"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	files, err := Discover(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "a.otir"), filepath.Join(dir, "sub", "b.test")}
	if !reflect.DeepEqual(files, want) {
		t.Errorf("Discover = %q, want %q", files, want)
	}
}

func TestRun(t *testing.T) {
	cfg := &Config{Features: map[string]bool{"yes": true}}
	for _, c := range []struct {
		test Test
		want Status
	}{
		{Test{Run: []string{"true", "echo x | grep -q x"}}, Pass},
		{Test{Run: []string{"true", "false | true"}}, Fail}, // pipefail
		{Test{Run: []string{"false"}, XFail: []string{"*"}}, XFail},
		{Test{Run: []string{"true"}, XFail: []string{"yes"}}, XPass},
		{Test{Run: []string{"false"}, XFail: []string{"no"}}, Fail},
		{Test{Run: []string{"false"}, Requires: []string{"no"}}, Unsupported},
		{Test{Run: []string{"false"}, Unsupported: []string{"yes"}}, Unsupported},
		{Test{Run: []string{"echo hi > %t", "test -s %t", `test "$PWD" = "%T"`}}, Pass},
	} {
		c.test.Path = "/x/t.test"
		if got := cfg.Run(&c.test); got.Status != c.want {
			t.Errorf("Run(%q) = %v, want %v (%s)", c.test.Run, got.Status, c.want, got.Report())
		}
	}
	r := cfg.Run(&Test{Path: "/x/t.test", Run: []string{"true", "echo out; echo err >&2; exit 3"}})
	rep := r.Report()
	for _, w := range []string{"RUN line 2 failed with exit status 3", "echo out; echo err >&2; exit 3", "out\nerr\n"} {
		if !strings.Contains(rep, w) {
			t.Errorf("report lacks %q:\n%s", w, rep)
		}
	}
}

func TestGoldenDiff(t *testing.T) {
	dir := t.TempDir()
	golden := filepath.Join(dir, "g.txt")
	os.WriteFile(golden, []byte("a\nb\nc\n"), 0o644)
	var out, errOut strings.Builder
	if code := GoldenDiffMain([]string{golden}, strings.NewReader("a\nb\nc\n"), &out, &errOut, false); code != 0 {
		t.Errorf("equal texts: exit %d, %s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := GoldenDiffMain([]string{golden, "-"}, strings.NewReader("a\nB\nc\n"), &out, &errOut, false); code != 1 {
		t.Errorf("different texts: exit %d", code)
	}
	if want := "  a\n- b\n+ B\n  c\n"; !strings.HasSuffix(out.String(), want) {
		t.Errorf("diff:\n%s\nwant suffix:\n%s", out.String(), want)
	}
	if code := GoldenDiffMain([]string{golden}, strings.NewReader("new\n"), &out, &errOut, true); code != 0 {
		t.Errorf("update: exit %d", code)
	}
	if b, _ := os.ReadFile(golden); string(b) != "new\n" {
		t.Errorf("updated golden = %q", b)
	}
	if code := GoldenDiffMain(nil, nil, &out, &errOut, false); code != 2 {
		t.Errorf("no args: exit %d", code)
	}
	if code := GoldenDiffMain([]string{filepath.Join(dir, "missing")}, strings.NewReader(""), &out, &errOut, false); code != 2 {
		t.Errorf("missing golden: exit %d", code)
	}
}

func TestLineDiffElides(t *testing.T) {
	var a, b []string
	for i := 0; i < 20; i++ {
		a = append(a, "same")
		b = append(b, "same")
	}
	a[10], b[10] = "old", "new"
	d := LineDiff(strings.Join(a, "\n")+"\n", strings.Join(b, "\n")+"\n")
	if !strings.Contains(d, "... (7 unchanged lines)") || !strings.Contains(d, "- old\n+ new\n") {
		t.Errorf("LineDiff:\n%s", d)
	}
}
