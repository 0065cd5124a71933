package lit

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Names that break a bare path in a shell command, or run one.
var hostileNames = []string{
	"a b", "it's", `say "hi"`, "x;true #", "$(echo INJECTED >&2)", "`echo INJECTED >&2`",
	`back\slash`, "tab\there", "*", "~user", "{a,b}", "a&b|c", "$HOME", "!x", "new\nline", "été",
}

// An ordinary path is substituted exactly as lit does; only a path with
// characters the shell reads is quoted, for the place it lands in.
func TestShellQuote(t *testing.T) {
	tests := []struct {
		cmd, value, want string
	}{
		{"cat %s", "/d/t.lit", "cat /d/t.lit"},
		{"cat %s.npy", "/d/a-b_c,d:e+f@g%h=i", "cat /d/a-b_c,d:e+f@g%h=i.npy"},
		{"cat %s", "/d e/t", "cat '/d e/t'"},
		{"cat %s/x", "/it's", `cat '/it'\''s'/x`},
		{`echo "in %s"`, "/a b/$x", `echo "in /a b/\$x"`},
		{`echo 'in %s'`, "/it's here", `echo 'in /it'\''s here'`},
		{`echo "$(cat %s)"`, "/a b", `echo "$(cat '/a b')"`},
		{"echo `cat %s`", "/a b", "echo `cat '/a b'`"},
		{`echo $'x %s'`, `/a'b\c`, `echo $'x /a\'b\\c'`},
		{`echo \'%s`, "/a b", `echo \''/a b'`},
		{`echo "\"%s"`, "/a b", `echo "\"/a b"`},
		{"sed 's@%s@X@'", "/a;b", "sed 's@/a;b@X@'"},
	}
	for _, tc := range tests {
		if got := replaceQuoted(tc.cmd, []Subst{{"%s", tc.value}}); got != tc.want {
			t.Errorf("replaceQuoted(%q, %q) = %q, want %q", tc.cmd, tc.value, got, tc.want)
		}
	}
}

// Whatever the name and wherever %s lands, bash reads the path itself.
func TestShellQuoteRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	templates := []struct{ cmd, want string }{
		{`printf '%%s\n' %s`, "P"},
		{`printf '%%s\n' pre%s.post`, "preP.post"},
		{`printf '%%s\n' "pre %s post"`, "pre P post"},
		{`printf '%%s\n' 'pre %s post'`, "pre P post"},
		{`printf '%%s\n' "$(printf '%%s' %s)"`, "P"},
		{`printf '%%s\n' "$(printf '%%s' "(%s)")"`, "(P)"},
		{"printf '%%s\\n' \"`printf '%%s' %s`\"", "P"},
		{`printf '%%s\n' $'%s'`, "P"},
	}
	for _, name := range hostileNames {
		path := "/tmp/" + name + "/t.lit"
		for _, tp := range templates {
			if strings.Contains(tp.cmd, "`") && strings.ContainsAny(name, "`\\") {
				continue // bash's backquotes strip backslashes: $(...) is the form for them
			}
			cmd := Substitute(tp.cmd, path, "/tmp/u")
			out, err := exec.Command("bash", "-c", cmd).CombinedOutput()
			want := strings.ReplaceAll(tp.want, "P", path) + "\n"
			if err != nil || string(out) != want {
				t.Errorf("name %q: bash -c %q printed %q (%v), want %q", name, cmd, out, err, want)
			}
		}
	}
}

// Tests in folders with hostile names run as in any folder: a space or a
// quote does not break them, '$(...)' runs nothing, and a ';' does not
// turn a failure into a pass.
func TestRunInHostileFolders(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	root := t.TempDir()
	tests := []struct {
		file, content string
		want          Status
	}{
		// Reads the test file and its folder by %s, %S and %p; writes %t.
		{"ok.lit", "# RUN: grep -q MARKER %s && test -d %S && test -f %p/ok.lit\n# RUN: cp %s %t && cmp %t %s && test -d %T\n# RUN: echo \"%s\" | grep -q ok.lit\n# MARKER\n", Pass},
		// The file exists, so this must fail, whatever the folder's name.
		{"fail.lit", "# RUN: ! cat %s > /dev/null\n", Fail},
	}
	for _, name := range hostileNames {
		if strings.ContainsAny(name, "\n") {
			continue // a RUN line is one line; the round trip covers it
		}
		dir := filepath.Join(root, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, tc := range tests {
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			tst, err := Parse(path, tc.file, []byte(tc.content))
			if err != nil {
				t.Fatal(err)
			}
			res := (&Config{}).Run(tst)
			if res.Status != tc.want {
				t.Errorf("folder %q, %s: %v, want %v\n%s", name, tc.file, res.Status, tc.want, res.Log)
			}
			if strings.Contains(res.Log, "\nINJECTED\n") {
				t.Errorf("folder %q, %s: the name ran a command\n%s", name, tc.file, res.Log)
			}
		}
	}
}

// FuzzShellQuote: whatever the path, bash reads each built-in substitution
// as the path itself, in every quoting context of a RUN line.
func FuzzShellQuote(f *testing.F) {
	if _, err := exec.LookPath("bash"); err != nil {
		f.Skip("no bash")
	}
	for _, name := range hostileNames {
		f.Add("/tmp/" + name + "/t.lit")
	}
	f.Fuzz(func(t *testing.T, path string) {
		if strings.ContainsRune(path, 0) || len(path) > 200 {
			return // no argument of a process holds a NUL
		}
		// One command prints the path in each context, NUL-separated.
		cmd := Substitute(`printf '%%s\0' %s "%s" 'x%s' "$(printf '%%s' %s)" $'%s'`, path, "/tmp/u")
		out, err := exec.Command("bash", "-c", cmd).Output()
		want := strings.Repeat(path+"\x00", 2) + "x" + path + "\x00" + path + "\x00" + path + "\x00"
		if strings.HasSuffix(path, "\n") {
			// $(...) drops trailing newlines: compare the others.
			got := strings.Split(string(out), "\x00")
			if err != nil || len(got) != 6 || got[0] != path || got[1] != path || got[2] != "x"+path || got[4] != path {
				t.Fatalf("path %q: bash -c %q printed %q (%v)", path, cmd, out, err)
			}
			return
		}
		if err != nil || string(out) != want {
			t.Fatalf("path %q: bash -c %q printed %q (%v), want %q", path, cmd, out, err, want)
		}
	})
}
