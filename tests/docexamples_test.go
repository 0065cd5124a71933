package tests

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/otir-dev/otir/internal/lit"
)

// docExample is one fenced block of commands.
type docExample struct {
	line    int // the line of its first command
	cmds    []docCommand
	skip    string   // why it is not checked, from a "not checked" marker
	needs   []string // tools it needs, from a "needs" marker
	usesDir bool     // it reads ../shared
	file    string   // a block that is no example: its text is this file's
	content string
}

// docCommand is one "$ " command of a block and the output shown after it.
type docCommand struct {
	line int
	text string
	want []string
}

// docMarker is an HTML comment that steers the test for the next block.
var docMarker = regexp.MustCompile(`^<!-- doc-example: (not checked|needs|file)(?::)? (.*?) -->$`)

// parseDocExamples finds the command blocks of a Markdown file.
func parseDocExamples(content string) ([]docExample, error) {
	lines := strings.Split(content, "\n")
	var blocks []docExample
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "```") {
			continue
		}
		end := i + 1
		for end < len(lines) && !strings.HasPrefix(lines[end], "```") {
			end++
		}
		body := lines[i+1 : min(end, len(lines))]
		b := docExample{line: i + 2}
		for j := i - 1; j >= 0; j-- {
			m := docMarker.FindStringSubmatch(lines[j])
			if m == nil {
				break
			}
			switch m[1] {
			case "needs":
				b.needs = append(b.needs, strings.Fields(m[2])...)
			case "file":
				b.file = m[2]
			default:
				b.skip = m[2]
			}
		}
		if b.file != "" {
			b.content = joinLines(body)
			blocks = append(blocks, b)
		} else if len(body) > 0 && strings.HasPrefix(body[0], "$ ") {
			cmds, err := parseCommands(body, i+2)
			if err != nil {
				return nil, err
			}
			b.cmds = cmds
			for _, c := range cmds {
				b.usesDir = b.usesDir || strings.Contains(c.text, "../shared")
			}
			blocks = append(blocks, b)
		}
		i = end
	}
	return blocks, nil
}

// parseCommands splits a block's lines (the first at line first) into
// commands and their shown output.
func parseCommands(body []string, first int) ([]docCommand, error) {
	var cmds []docCommand
	for i := 0; i < len(body); {
		if !strings.HasPrefix(body[i], "$ ") {
			return nil, fmt.Errorf("line %d: output before the first command", first+i)
		}
		c := docCommand{line: first + i, text: body[i][2:]}
		var sc shellScanner
		more := sc.line(c.text)
		for i++; more; i++ {
			if i == len(body) {
				return nil, fmt.Errorf("line %d: the command does not end before the block does (a quote, heredoc or \\ left open)", c.line)
			}
			c.text += "\n" + body[i]
			more = sc.line(body[i])
		}
		for ; i < len(body) && !strings.HasPrefix(body[i], "$ "); i++ {
			c.want = append(c.want, body[i])
		}
		cmds = append(cmds, c)
	}
	return cmds, nil
}

// shellScanner follows a command line by line, far enough to tell whether
// it goes on: an open quote, a trailing backslash or an open heredoc.
type shellScanner struct {
	quote    byte     // ' or " while inside quotes
	heredocs []string // the terminators of the heredocs still open
	strip    []bool   // whether each heredoc is <<- (leading tabs stripped)
}

var heredocStart = regexp.MustCompile(`^<<(-?)\s*(?:'([^']+)'|"([^"]+)"|([A-Za-z_][A-Za-z0-9_]*))`)

// line reads the next line of the command and tells whether more lines
// belong to it.
func (s *shellScanner) line(l string) bool {
	if len(s.heredocs) > 0 {
		t := l
		if s.strip[0] {
			t = strings.TrimLeft(t, "\t")
		}
		if t == s.heredocs[0] {
			s.heredocs, s.strip = s.heredocs[1:], s.strip[1:]
		}
		return len(s.heredocs) > 0
	}
	cont := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		cont = false
		switch {
		case s.quote == '\'':
			if c == '\'' {
				s.quote = 0
			}
		case c == '\\':
			if i == len(l)-1 {
				cont = true
			}
			i++
		case s.quote == '"':
			if c == '"' {
				s.quote = 0
			}
		case c == '\'' || c == '"':
			s.quote = c
		case c == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t'):
			i = len(l)
		case c == '<' && strings.HasPrefix(l[i:], "<<<"):
			i += 2
		case c == '<':
			if m := heredocStart.FindStringSubmatch(l[i:]); m != nil {
				s.heredocs = append(s.heredocs, m[2]+m[3]+m[4])
				s.strip = append(s.strip, m[1] == "-")
				i += len(m[0]) - 1
			}
		}
	}
	return cont || s.quote != 0 || len(s.heredocs) > 0
}

// matchLines tells whether got matches want, where a want line "..."
// (indentation allowed) matches any run of lines. Trailing spaces do not
// count: Markdown editors drop them.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if isEllipsis(want[0]) {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(want[0], " \t") == strings.TrimRight(got[0], " \t") &&
		matchLines(want[1:], got[1:])
}

// docMark separates the outputs of a block's commands in the shell's output.
const docMark = "\x1eDOCEX-EXIT "

// runDocExample runs a block's commands in one bash in dir and returns the
// output of each, with "[exit status N]" added when it is not 0.
func runDocExample(ctx context.Context, b docExample, dir string, env []string) (outs []string, cpu time.Duration, err error) {
	var script strings.Builder
	script.WriteString("exec 2>&1\n")
	for _, c := range b.cmds {
		fmt.Fprintf(&script, "%s\nprintf '%s%%d\\x1e' \"$?\"\n", c.text, docMark)
	}
	cmd := exec.CommandContext(ctx, "bash", "--noprofile", "--norc", "-c", script.String())
	cmd.Dir = dir
	cmd.Env = env
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout = &out
	err = cmd.Run()
	if st := cmd.ProcessState; st != nil {
		cpu = st.UserTime() + st.SystemTime()
	}
	rest := out.String()
	for range b.cmds {
		k := strings.Index(rest, docMark)
		if k < 0 {
			return outs, cpu, fmt.Errorf("the shell ended early (%v); its last output:\n%s", err, rest)
		}
		text := rest[:k]
		rest = rest[k+len(docMark):]
		e := strings.IndexByte(rest, '\x1e')
		if status := rest[:e]; status != "0" {
			if text != "" && !strings.HasSuffix(text, "\n") {
				text += "\n"
			}
			text += "[exit status " + status + "]\n"
		}
		outs = append(outs, text)
		rest = rest[e+1:]
	}
	if ctx.Err() != nil {
		return outs, cpu, ctx.Err()
	}
	return outs, cpu, nil
}

// outputLines splits a command's output into lines.
func outputLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// checkDocOutput compares a command's output with the lines shown; a shown
// "[exit status 0]" asks for the status also when it is 0.
func checkDocOutput(c docCommand, out string) (ok bool, got []string) {
	got = outputLines(out)
	if n := len(c.want); n > 0 && c.want[n-1] == "[exit status 0]" && !strings.Contains(out, "[exit status ") {
		got = append(got, "[exit status 0]")
	}
	return matchLines(c.want, got), got
}

var (
	builtOnce sync.Once
	builtDir  string
	builtErr  error
)

// builtTools builds the commands once for the package's tests and returns
// the folder of the binaries.
func builtTools(t *testing.T) string {
	t.Helper()
	builtOnce.Do(func() {
		builtDir, builtErr = os.MkdirTemp("", "otir-tests-bin-")
		if builtErr != nil {
			return
		}
		var log string
		log, builtErr = lit.BuildBinaries(repoRoot(), builtDir)
		if builtErr != nil {
			builtErr = fmt.Errorf("%v\n%s", builtErr, log)
		}
	})
	if builtErr != nil {
		t.Error(builtErr) // the commands that built are still worth running
	}
	return builtDir
}

// TestMain removes the binaries builtTools built.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// repoRoot is the repository's root: the folder above tests/.
func repoRoot() string {
	wd, _ := os.Getwd()
	return filepath.Dir(wd)
}

// sharedDir is ../shared beside the repository (the specifications and
// conformance files), or "" when there is none.
func sharedDir() string {
	dir := filepath.Join(repoRoot(), "..", "shared")
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}

// haveTool tells whether a tool named by a "needs" marker is here: a
// command on PATH, "shared" (../shared beside the repository), a Python
// module that python3 imports (numpy, torch), or an environment variable
// that is set (a name in capitals, such as OTIR_QONNX_ZOO).
func haveTool(name, path string) bool {
	toolsMu.Lock()
	defer toolsMu.Unlock()
	have, ok := toolsSeen[name]
	if !ok {
		have = lookTool(name, path)
		toolsSeen[name] = have
	}
	return have
}

// toolsSeen caches haveTool's answers: importing torch takes a second.
var (
	toolsMu   sync.Mutex
	toolsSeen = map[string]bool{}
)

func lookTool(name, path string) bool {
	if strings.ToUpper(name) == name {
		return os.Getenv(name) != ""
	}
	switch name {
	case "shared":
		return sharedDir() != ""
	case "numpy", "torch", "onnx":
		py := pythonWith("numpy")
		return py != "" && exec.Command(py, "-c", "import "+name).Run() == nil
	}
	for _, dir := range filepath.SplitList(path) {
		if st, err := os.Stat(filepath.Join(dir, name)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// pythonWith is the first python3 on PATH that imports module, or "".
func pythonWith(module string) string {
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		py := filepath.Join(dir, "python3")
		if exec.Command(py, "-c", "import "+module).Run() == nil {
			return py
		}
	}
	return ""
}

// docScratch makes the scratch folder of a doc: bin/ (the built tools),
// the repository's top-level folders, and ../shared.
func docScratch(t *testing.T, root, name, bin string) string {
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{"bin": bin}
	entries, _ := os.ReadDir(repoRoot())
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && e.Name() != "bin" {
			links[e.Name()] = filepath.Join(repoRoot(), e.Name())
		}
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDocExamples runs the command examples of README.md and docs/*.md and
// compares their output with the text shown, so that the docs show real
// commands with real output. The conventions are in README.md, "Command
// examples in the docs": a fenced block whose first line starts with "$ "
// is an example; each "$ " line (with its continuations and heredocs) is a
// command and the lines up to the next "$ " its output, matched exactly but
// for "..." lines and trailing spaces, with "[exit status N]" last when N is
// not 0. The blocks of a doc run in order in one scratch folder, each in a
// new bash; "<!-- doc-example: ... -->" markers skip a block (needs, not
// checked) or write a file. One doc:
//
//	go test ./tests -run 'TestDocExamples/docs/rtl.md' -v
func TestDocExamples(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash on PATH")
	}
	bin := builtTools(t)
	root := t.TempDir()
	if shared := sharedDir(); shared != "" {
		if err := os.Symlink(shared, filepath.Join(root, "shared")); err != nil {
			t.Fatal(err)
		}
	}
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	// The examples' python3 is one with NumPy (a pyenv shim may come first).
	if py := pythonWith("numpy"); py != "" {
		pyDir := filepath.Join(root, "python")
		if err := os.Mkdir(pyDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(py, filepath.Join(pyDir, "python3")); err != nil {
			t.Fatal(err)
		}
		path = pyDir + string(os.PathListSeparator) + path
	}
	if ref := os.Getenv("OTIR_REFERENCE_BIN"); ref != "" {
		path += string(os.PathListSeparator) + ref
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "FILECHECK_OPTS=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+path, "LC_ALL=C")

	update := os.Getenv("OTIR_UPDATE_DOCS") == "1"
	docs, _ := filepath.Glob(filepath.Join(repoRoot(), "docs", "*.md"))
	docs = append([]string{filepath.Join(repoRoot(), "README.md")}, docs...)
	for _, doc := range docs {
		rel, _ := filepath.Rel(repoRoot(), doc)
		rel = filepath.ToSlash(rel)
		content, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		blocks, err := parseDocExamples(string(content))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if len(blocks) == 0 {
			continue
		}
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			dir := docScratch(t, root, strings.TrimSuffix(filepath.Base(doc), ".md"), bin)
			checked, examples, commands := 0, 0, 0
			var fixes []docFix
			for _, b := range blocks {
				if b.file != "" {
					if err := os.WriteFile(filepath.Join(dir, b.file), []byte(b.content), 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				examples++
				if b.skip != "" {
					t.Logf("%s:%d: not checked: %s", rel, b.line, b.skip)
					continue
				}
				if b.usesDir {
					b.needs = append(b.needs, "shared")
				}
				var missing []string
				for _, tool := range b.needs {
					if !haveTool(tool, path) {
						missing = append(missing, tool)
					}
				}
				if len(missing) > 0 {
					t.Logf("%s:%d: skipped: needs %s", rel, b.line, strings.Join(missing, ", "))
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
				outs, cpu, err := runDocExample(ctx, b, dir, env)
				cancel()
				if cpu > time.Second {
					t.Logf("%s:%d: %.1f s of CPU", rel, b.line, cpu.Seconds())
				}
				for i, out := range outs {
					c := b.cmds[i]
					if ok, got := checkDocOutput(c, out); !ok {
						if update && !slices.ContainsFunc(c.want, isEllipsis) {
							fixes = append(fixes, docFix{c, got})
							continue
						}
						t.Errorf("%s:%d: $ %s\noutput differs (- shown, + real; a line ... matches any run of lines):\n%s",
							rel, c.line, firstLine(c.text), lit.LineDiff(joinLines(c.want), joinLines(elideLike(c.want, got))))
					}
				}
				if err != nil {
					t.Errorf("%s:%d: %v", rel, b.line, err)
				}
				checked++
				commands += len(b.cmds)
			}
			t.Logf("%s: %d of %d examples checked (%d commands)", rel, checked, examples, commands)
			if len(fixes) > 0 {
				if err := os.WriteFile(doc, []byte(applyDocFixes(string(content), fixes)), 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: rewrote the output of %d commands (OTIR_UPDATE_DOCS): review the diff", rel, len(fixes))
			}
		})
	}
}

// docFix is a command's real output, to be written in place of the shown
// one.
type docFix struct {
	cmd docCommand
	got []string
}

// applyDocFixes rewrites the shown output of each fixed command in content.
func applyDocFixes(content string, fixes []docFix) string {
	lines := strings.Split(content, "\n")
	for i := len(fixes) - 1; i >= 0; i-- {
		f := fixes[i]
		start := f.cmd.line - 1 + strings.Count(f.cmd.text, "\n") + 1
		var got []string
		for _, l := range f.got {
			got = append(got, strings.TrimRight(l, " \t"))
		}
		lines = slices.Replace(lines, start, start+len(f.cmd.want), got...)
	}
	return strings.Join(lines, "\n")
}

// elideLike is got with the runs that the "..." lines of want seem to
// stand for replaced by "...", so that a diff shows only what differs: each
// "..." takes the lines up to the next occurrence of the line after it.
func elideLike(want, got []string) []string {
	var out []string
	g := 0
	for w, line := range want {
		if !isEllipsis(line) {
			if g < len(got) {
				out = append(out, got[g])
				g++
			}
			continue
		}
		k := len(got) - g // a final "..." takes the rest
		if w+1 < len(want) {
			k = slices.IndexFunc(got[g:], func(l string) bool {
				return strings.TrimRight(l, " \t") == strings.TrimRight(want[w+1], " \t")
			})
		}
		if k >= 0 {
			out = append(out, line)
			g += k
		}
	}
	return append(out, got[g:]...)
}

func isEllipsis(line string) bool { return strings.TrimSpace(line) == "..." }

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}

// TestDocExampleParsing checks how blocks split into commands and outputs,
// and what the markers and "..." mean.
func TestDocExampleParsing(t *testing.T) {
	doc := strings.Join([]string{
		"text",
		"<!-- doc-example: needs iverilog numpy -->",
		"```",
		"$ echo 'a",
		"b' \\",
		"  c",
		"a",
		"b c",
		"$ cat <<'EOF' | wc -l   # a heredoc",
		"x",
		"EOF",
		"1",
		"$ true <<< 'no heredoc'",
		"```",
		"<!-- doc-example: not checked: timings -->",
		"```",
		"$ date",
		"```",
		"<!-- doc-example: file in.txt -->",
		"```mlir",
		"some input",
		"```",
		"```",
		"not an example",
		"```",
	}, "\n")
	blocks, err := parseDocExamples(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) != 3 {
		t.Fatalf("%d blocks, want 3 (two examples and a file)", len(blocks))
	}
	b := blocks[0]
	if !slices.Equal(b.needs, []string{"iverilog", "numpy"}) || b.skip != "" {
		t.Errorf("first block: needs %q, skip %q", b.needs, b.skip)
	}
	want := []docCommand{
		{line: 4, text: "echo 'a\nb' \\\n  c", want: []string{"a", "b c"}},
		{line: 9, text: "cat <<'EOF' | wc -l   # a heredoc\nx\nEOF", want: []string{"1"}},
		{line: 13, text: "true <<< 'no heredoc'"},
	}
	if len(b.cmds) != len(want) {
		t.Fatalf("%d commands, want %d: %+v", len(b.cmds), len(want), b.cmds)
	}
	for i, c := range b.cmds {
		if c.line != want[i].line || c.text != want[i].text || !slices.Equal(c.want, want[i].want) {
			t.Errorf("command %d: %+v, want %+v", i, c, want[i])
		}
	}
	if blocks[1].skip != "timings" {
		t.Errorf("second block: skip %q, want timings", blocks[1].skip)
	}
	if blocks[2].file != "in.txt" || blocks[2].content != "some input\n" {
		t.Errorf("file block: %q %q", blocks[2].file, blocks[2].content)
	}
	if _, err := parseDocExamples("```\n$ echo 'open\n```\n"); err == nil {
		t.Error("a quote left open to the end of the block is not an error")
	}
	if _, err := parseDocExamples("```\n$ a\nout\n```\n```\nx\n$ b\n```\n"); err != nil {
		t.Errorf("a block not starting with $ is no example: %v", err)
	}

	for _, m := range []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nb\nc", false},
		{"a\n...", "a\nb\nc", true},
		{"a\n...", "a", true},
		{"  ...\nc", "a\nb\nc", true},
		{"a\n...\nc", "a\nc\nb", false},
		{"a  ", "a", true},
		{"a", "b", false},
	} {
		if got := matchLines(strings.Split(m.want, "\n"), strings.Split(m.got, "\n")); got != m.ok {
			t.Errorf("matchLines(%q, %q) = %v, want %v", m.want, m.got, got, m.ok)
		}
	}
	for _, e := range []struct{ want, got, elided string }{
		{"a\n...\nd", "a\nb\nc\nd", "a\n...\nd"},
		{"a\n...\nd", "a\nb\nc\nx", "a\nb\nc\nx"},
		{"a\n...", "x\nb\nc", "x\n..."},
	} {
		got := elideLike(strings.Split(e.want, "\n"), strings.Split(e.got, "\n"))
		if strings.Join(got, "\n") != e.elided {
			t.Errorf("elideLike(%q, %q) = %q, want %q", e.want, e.got, got, e.elided)
		}
	}
	c := docCommand{want: []string{"[exit status 0]"}}
	if ok, got := checkDocOutput(c, ""); !ok {
		t.Errorf("a shown [exit status 0] does not match a command that succeeds: %q", got)
	}
}
