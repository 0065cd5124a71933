package lit

import (
	"reflect"
	"strings"
	"testing"
)

func TestEvalBool(t *testing.T) {
	features := map[string]bool{"linux": true, "x86_64-linux-gnu": true, "asserts": true, "a-b.c+d=e": true}
	for _, c := range []struct {
		expr string
		want bool
	}{
		{"true", true},
		{"linux", true},
		{"windows", false},
		{"a-b.c+d=e", true},
		{"!linux", false},
		{"!!linux", true},
		{"linux && asserts", true},
		{"linux && windows", false},
		{"windows || asserts", true},
		{"windows || darwin", false},
		{"!windows && !darwin", true},
		{"windows || linux && !asserts", false}, // && binds tighter
		{"(windows || linux) && asserts", true},
		{"!(windows || linux)", false},
		{"((linux))", true},
		{"x86_64{{.*}}", true},
		{"{{.*}}-linux-{{gnu|musl}}", true},
		{"x86{{.*}}", true},
		{"x86", false}, // a whole feature, not a prefix
		{"{{arm.*}}", false},
		{"{{.*}}.c+d=e", true}, // literal parts are literal
	} {
		got, err := EvalBool(c.expr, features)
		if err != nil || got != c.want {
			t.Errorf("EvalBool(%q) = %v, %v; want %v", c.expr, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "(", "linux &&", "&& linux", "linux asserts", "(linux", "linux)", "!", "linux || || asserts", "lin ux", "a$b", "{{[}}"} {
		if v, err := EvalBool(bad, features); err == nil {
			t.Errorf("EvalBool(%q) = %v, want an error", bad, v)
		}
	}
}

func TestDirectivesAnywhere(t *testing.T) {
	// No comment markers for an unregistered extension: keywords are found
	// anywhere on a line, the leftmost wins, and parsing stops at END.
	src := strings.Join([]string{
		"RUN: echo %{greet} \\",
		"  ; RUN:  %{who}",
		"plain text between",
		"; DEFINE: %{greet} = hello",
		"; DEFINE: %{who} = world \\",
		"; DEFINE: again",
		"RUN: echo %{greet} %{who} %%{greet}",
		"text REDEFINE: %{who} = there",
		"RUN: echo %{greet} %{who}",
		"REQUIRES: a && !b, c",
		"x UNSUPPORTED: (d || e)",
		"CHECK: XFAIL: f",
		"RUN: echo RUN: nested # found once, at the first keyword",
		"RUN: echo line %(line) %(line+2) %(line - 1)",
		"; END.",
		"RUN: never",
	}, "\n")
	tst, err := ParseWith("/t/x.txt", "x.txt", []byte(src), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"echo %{greet}   %{who}",
		"echo hello world  again " + percentMarker + "{greet}",
		"echo hello there",
		"echo RUN: nested # found once, at the first keyword",
		"echo line 14 16 13",
	}
	if !reflect.DeepEqual(tst.Run, want) {
		t.Errorf("Run =\n%q\nwant\n%q", tst.Run, want)
	}
	if !reflect.DeepEqual(tst.RunLine, []int{1, 7, 9, 13, 14}) {
		t.Errorf("RunLine = %v", tst.RunLine)
	}
	if !reflect.DeepEqual(tst.Requires, []string{"a && !b", "c"}) || !reflect.DeepEqual(tst.Unsupported, []string{"(d || e)"}) || !reflect.DeepEqual(tst.XFail, []string{"f"}) {
		t.Errorf("directives: %+v", tst)
	}
	// After substitution %% is a literal percent sign and %{greet} stays.
	if got := Apply(tst.Run[1], Builtins("/t/x.txt", "/tmp/u")); got != "echo hello world  again %{greet}" {
		t.Errorf("Apply = %q", got)
	}
	for _, bad := range []string{
		"DEFINE: %{a} = 1\nDEFINE: %{a} = 2\nRUN: true", // DEFINE twice
		"REDEFINE: %{a} = 1\nRUN: true",                 // REDEFINE of nothing
		"DEFINE: a = 1\nRUN: true",                      // not %{name}
		"RUN: true \\\nDEFINE: %{a} = 1\nRUN: true",     // continuation into another directive
		"DEFINE: %{a} = 1 \\",                           // unterminated
		"END.\nRUN: true",                               // no RUN before END.
	} {
		if _, err := ParseWith("/t/b.txt", "b.txt", []byte(bad), nil, nil); err == nil {
			t.Errorf("ParseWith(%q) succeeded", bad)
		}
	}
	// Predefined substitutions (otir-lit -D) may be redefined, not defined.
	pre := []Subst{{"%{x}", "1"}}
	if _, err := ParseWith("/t/b.txt", "b.txt", []byte("DEFINE: %{x} = 2\nRUN: true"), nil, pre); err == nil {
		t.Error("DEFINE of a predefined name succeeded")
	}
	if tst, err := ParseWith("/t/b.txt", "b.txt", []byte("REDEFINE: %{x} = 2\nRUN: echo %{x}"), nil, pre); err != nil || tst.Run[0] != "echo 2" {
		t.Errorf("REDEFINE of a predefined name: %v %v", tst, err)
	}
}

func TestBuiltins(t *testing.T) {
	cmd := "%s|%S|%p|%t|%T|%/s|%/t|%basename_t|%{pathsep}|%:s|%{/s:regex_replacement}|%{s:basename}|%%s|%x|%{fs-sep}"
	got := Substitute(cmd, "/d/x.y.txt", "/tmp/u")
	// The regex replacement holds backslashes: quoted, so that bash keeps them.
	want := "/d/x.y.txt|/d|/d|/tmp/u/x.y.txt.tmp|/tmp/u|/d/x.y.txt|/tmp/u/x.y.txt.tmp|x.y.txt|:|d/x.y.txt|'/d/x\\.y\\.txt'|x.y.txt|%s|%x|/"
	if got != want {
		t.Errorf("Substitute =\n%s\nwant\n%s", got, want)
	}
	// Config substitutions apply before the built-in ones, so %python is
	// not read as %p followed by "ython".
	cfg := []Subst{{"%python", "python3"}, {"%ProtectFileCheckOutput", "env -u FILECHECK_OPTS"}}
	if got := Apply("%ProtectFileCheckOutput %python %p", cfg, Builtins("/d/t", "/tmp")); got != "env -u FILECHECK_OPTS python3 /d" {
		t.Errorf("Apply = %q", got)
	}
}

func TestRunExpressions(t *testing.T) {
	cfg := &Config{Features: map[string]bool{"yes": true, "also": true}}
	for _, c := range []struct {
		test Test
		want Status
	}{
		{Test{Run: []string{"true"}, Requires: []string{"yes && also"}}, Pass},
		{Test{Run: []string{"true"}, Requires: []string{"yes && !also"}}, Unsupported},
		{Test{Run: []string{"true"}, Requires: []string{"yes", "no"}}, Unsupported},
		{Test{Run: []string{"true"}, Unsupported: []string{"no || (yes && also)"}}, Unsupported},
		{Test{Run: []string{"true"}, Unsupported: []string{"no", "!yes"}}, Pass},
		{Test{Run: []string{"false"}, XFail: []string{"no", "!no"}}, XFail},
		{Test{Run: []string{"true"}, Requires: []string{"yes &&"}}, Unresolved},
		{Test{Run: []string{"false"}, XFail: []string{"("}}, Unresolved},
		{Test{Run: []string{"echo %{v} | grep -qx 7"}}, Pass},
	} {
		c.test.Path = "/x/t.test"
		cfg.Substitutions = []Subst{{"%{v}", "7"}}
		if got := cfg.Run(&c.test); got.Status != c.want {
			t.Errorf("Run(%q, %q/%q/%q) = %v, want %v (%s)", c.test.Run, c.test.Requires, c.test.Unsupported, c.test.XFail, got.Status, c.want, got.Report())
		}
	}
}
