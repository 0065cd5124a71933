package filecheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runMain runs Main with a check file written to a temporary directory.
func runMain(t *testing.T, check, stdin string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "check.txt")
	if err := os.WriteFile(path, []byte(check), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "%s", path)
	}
	var stdout, stderr strings.Builder
	code := Main(Env{
		Args:   append([]string{"/bin/FileCheck"}, args...),
		Stdin:  strings.NewReader(stdin),
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
	})
	return code, stdout.String(), strings.ReplaceAll(stderr.String(), dir+"/", "")
}

func TestMainUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		exit int
		want string
	}{
		{nil, 2, "<check-file> not specified\n"},
		{[]string{"--bogus", "%s"}, 2, "FileCheck: Unknown command line argument '--bogus'.  Try: 'FileCheck --help'\n"},
		{[]string{"a", "b"}, 2, "FileCheck: Too many positional arguments specified!\n"},
		{[]string{"%s", "--input-file"}, 2, "FileCheck: for the --input-file option: requires a value!\n"},
		{[]string{"%s", "-D"}, 2, "FileCheck: for the -D option: requires a value!\n"},
		{[]string{"%s", "-DX"}, 2, "Missing equal sign in command-line definition '-DX'\n"},
		{[]string{"%s", "-D=1"}, 2, "Missing variable name in command-line definition '-D=1'\n"},
		{[]string{"%s", "--dump-input=sometimes"}, 2, "FileCheck: for the --dump-input option: Cannot find option named 'sometimes'!\n"},
		{[]string{"%s", "--dump-input-filter=x"}, 2, "FileCheck: for the --dump-input-filter option: Cannot find option named 'x'!\n"},
		{[]string{"%s", "--dump-input-context=x"}, 2, "FileCheck: for the --dump-input-context option: 'x' value invalid for uint argument!\n"},
		{[]string{"%s", "-v=maybe"}, 2, "FileCheck: for the -v option: 'maybe' is invalid value for boolean argument! Try 0 or 1\n"},
		{[]string{"no-such-file"}, 2, "Could not open check file 'no-such-file': No such file or directory\n"},
		{[]string{"%s", "--input-file=no-such-input"}, 2, "Could not open input file 'no-such-input': No such file or directory\n"},
		{[]string{"%s", "--check-prefix=A,A"}, 2, "error: supplied check prefix must be unique among check and comment prefixes: 'A'\n"},
		{[]string{"%s", "--comment-prefixes=CHECK"}, 2, "error: supplied comment prefix must be unique among check and comment prefixes: 'CHECK'\n"},
		// A flag that holds one value may be given once (issue 26).
		{[]string{"%s", "--input-file", "a", "--input-file=b"}, 2, "FileCheck: for the --input-file option: may only occur zero or one times! (given as 'a' and 'b')\n"},
		{[]string{"%s", "--dump-input-label-width=3", "-dump-input-label-width=4"}, 2, "FileCheck: for the --dump-input-label-width option: may only occur zero or one times!"},
	} {
		code, _, stderr := runMain(t, "CHECK: a\n", "a\n", nil, c.args...)
		if code != c.exit || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, stderr starting %q", c.args, code, stderr, c.exit, c.want)
		}
	}
}

func TestMainRuns(t *testing.T) {
	check := "CHECK: a\nCHECK-NEXT: [[X]]\n"
	for _, c := range []struct {
		args  []string
		env   map[string]string
		stdin string
		exit  int
		want  string
	}{
		{[]string{"%s", "-DX=b"}, nil, "a\nb\n", 0, ""},
		{[]string{"%s", "--D=X=b"}, nil, "a\nb\n", 2, "Missing variable name"},
		{[]string{"-DX=b", "%s"}, nil, "a\nc\n", 1, "check.txt:2:13: error: CHECK-NEXT: expected string not found in input"},
		{[]string{"%s"}, map[string]string{"FILECHECK_OPTS": "-DX=b -v"}, "a\nb\n", 0, ""},
		{[]string{"%s", "--dump-input=never"}, map[string]string{"FILECHECK_OPTS": "'-DX=c' -dump-input=always"}, "a\nb\n", 1, "Input was:"},
		{[]string{"%s", "-DX=b", "--dump-input", "always", "-v"}, nil, "a\nb\n", 0, "next:2'0     ^"},
		{[]string{"%s", "-DX=b", "-check-prefix", "CHECK"}, nil, "a\nb\n", 0, ""},
		{[]string{"%s", "-DX=b"}, nil, "", 2, "FileCheck error: '<stdin>' is empty.\nFileCheck command line:  /bin/FileCheck check.txt -DX=b\n"},
		{[]string{"-DX=b", "--", "%s"}, nil, "a\nb\n", 0, ""},
	} {
		code, _, stderr := runMain(t, check, c.stdin, c.env, c.args...)
		if code != c.exit || !strings.Contains(stderr, c.want) {
			t.Errorf("%v %v: exit %d, stderr:\n%s\nwant exit %d and %q", c.args, c.env, code, stderr, c.exit, c.want)
		}
	}
}

func TestMainHelp(t *testing.T) {
	code, stdout, _ := runMain(t, "", "", nil, "--dump-input=help")
	if code != 0 || !strings.HasPrefix(stdout, "The following description was requested by -dump-input=help") {
		t.Errorf("dump-input=help: exit %d, stdout %q", code, stdout)
	}
	code, stdout, _ = runMain(t, "", "", nil, "--help")
	if code != 0 || !strings.Contains(stdout, "FileCheck-compatible") {
		t.Errorf("help: exit %d, stdout %q", code, stdout)
	}
}

func TestTokenizeGNU(t *testing.T) {
	got := tokenizeGNU(`-a  'b c' "d\"e" f\ g`)
	want := []string{"-a", "b c", `d"e`, "f g"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("tokenizeGNU = %q, want %q", got, want)
	}
}

// TestMainDrainsPipedInput: when the check file alone decides (here, no
// check strings), Main still reads a piped stdin to its end, so that the
// command writing into the pipe does not die of SIGPIPE and fail a
// pipefail pipeline by a race ("sed ... | not FileCheck ...").
func TestMainDrainsPipedInput(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "check.txt")
	if err := os.WriteFile(path, []byte("no directives here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdin := strings.NewReader(strings.Repeat("input line\n", 10000))
	var stdout, stderr strings.Builder
	code := Main(Env{
		Args:   []string{"/bin/FileCheck", path},
		Stdin:  stdin,
		Stdout: &stdout,
		Stderr: &stderr,
		Getenv: func(string) string { return "" },
	})
	if code != 2 || !strings.Contains(stderr.String(), "no check strings found") {
		t.Fatalf("exit %d, stderr %q; want exit 2 and 'no check strings found'", code, stderr.String())
	}
	if stdin.Len() != 0 {
		t.Errorf("%d bytes of stdin left unread", stdin.Len())
	}
}
