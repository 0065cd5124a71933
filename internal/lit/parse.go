package lit

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// Test is a parsed test file.
type Test struct {
	Path        string   // absolute path
	Name        string   // slash-separated path relative to the test root
	Run         []string // RUN commands, continuation lines joined, DEFINEs applied
	RunLine     []int    // the line of each RUN command's first RUN:
	XFail       []string // XFAIL expressions ("*" matches always)
	Requires    []string // REQUIRES expressions, all must hold
	Unsupported []string // UNSUPPORTED expressions, none may hold
}

// Subst is one substitution: every occurrence of Key is replaced by Value.
type Subst struct{ Key, Value string }

// percentMarker stands for "%%" while substitutions are applied, as in lit.
const percentMarker = "#_MARKER_#"

// The directive keywords. With comment markers a directive must open a
// comment; without, lit's rule applies: the leftmost keyword anywhere on the
// line, the rest of the line being its text.
var (
	markerRE   = regexp.MustCompile(`^\s*(//|#|;)\s*(RUN:|XFAIL:|REQUIRES:|UNSUPPORTED:|DEFINE:|REDEFINE:|END\.)(.*)$`)
	anywhereRE = regexp.MustCompile(`(RUN:|XFAIL:|REQUIRES:|UNSUPPORTED:|DEFINE:|REDEFINE:|END\.)(.*)$`)
	defineRE   = regexp.MustCompile(`^\s*(%\{[-:\w]+\})\s*=(.*)$`)
	lineExprRE = regexp.MustCompile(`%\(line *([-+]) *([0-9]+)\)`)
)

// Parse reads the directives of a test file. For the extensions registered
// in Suffixes a directive must open a comment with one of the extension's
// markers; for any other extension directives are found anywhere on a
// line, as LLVM's lit finds them.
func Parse(path, name string, content []byte) (*Test, error) {
	return ParseWith(path, name, content, Suffixes[filepath.Ext(path)], nil)
}

// ParseWith is Parse with explicit comment markers (nil: anywhere on a
// line) and predefined %{name} substitutions (such as otir-lit's -D), which
// DEFINE may not redefine and REDEFINE may.
func ParseWith(path, name string, content []byte, markers []string, predefined []Subst) (*Test, error) {
	t := &Test{Path: path, Name: name}
	// defines holds the test's DEFINEs, newest first (lit inserts each new
	// one at the front of the substitution list).
	var defines []Subst
	known := map[string]bool{}
	for _, d := range predefined {
		known[d.Key] = true
	}
	pendKind, pending, pendLine := "", "", 0
	lines := strings.Split(string(content), "\n")
	finish := func(kind, text string, line int) error {
		switch kind {
		case "RUN:":
			cmd := strings.TrimSpace(strings.ReplaceAll(text, "%%", percentMarker))
			for _, d := range defines {
				cmd = strings.ReplaceAll(cmd, d.Key, d.Value)
			}
			t.Run = append(t.Run, cmd)
			t.RunLine = append(t.RunLine, line)
		case "DEFINE:", "REDEFINE:":
			m := defineRE.FindStringSubmatch(text)
			if m == nil {
				return fmt.Errorf("%s:%d: %s needs the form '%%{name} = value'", name, line, kind)
			}
			key, val := m[1], strings.TrimSpace(m[2])
			i := -1
			for j, d := range defines {
				if d.Key == key {
					i = j
				}
			}
			if kind == "DEFINE:" {
				if i >= 0 || known[key] {
					return fmt.Errorf("%s:%d: DEFINE: %s is already defined (use REDEFINE:)", name, line, key)
				}
				defines = append([]Subst{{key, val}}, defines...)
			} else {
				if i < 0 {
					if !known[key] {
						return fmt.Errorf("%s:%d: REDEFINE: %s is not defined (use DEFINE:)", name, line, key)
					}
					defines = append([]Subst{{key, val}}, defines...)
				} else {
					defines[i].Value = val
				}
			}
		}
		return nil
	}
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		var kind, text string
		if markers != nil {
			m := markerRE.FindStringSubmatch(line)
			if m != nil && contains(markers, m[1]) {
				kind, text = m[2], m[3]
			}
		} else if m := anywhereRE.FindStringSubmatch(line); m != nil {
			kind, text = m[1], m[2]
		}
		if kind == "" {
			if pendKind != "" && markers != nil {
				return nil, fmt.Errorf("%s:%d: %s line continued with '\\' but the next line is not a %s line", name, i+1, strings.TrimSuffix(pendKind, ":"), strings.TrimSuffix(pendKind, ":"))
			}
			continue
		}
		if kind == "END." {
			break
		}
		text = strings.TrimRight(text, " \t")
		text = strings.ReplaceAll(text, "%(line)", strconv.Itoa(i+1))
		text = lineExprRE.ReplaceAllStringFunc(text, func(s string) string {
			m := lineExprRE.FindStringSubmatch(s)
			n, _ := strconv.Atoi(m[2])
			if m[1] == "-" {
				n = -n
			}
			return strconv.Itoa(i + 1 + n)
		})
		if pendKind != "" && kind != pendKind {
			return nil, fmt.Errorf("%s:%d: %s line continued with '\\' but the next directive is %s", name, i+1, strings.TrimSuffix(pendKind, ":"), kind)
		}
		switch kind {
		case "RUN:", "DEFINE:", "REDEFINE:":
			if pendKind == "" {
				pendLine = i + 1
			}
			if strings.HasSuffix(text, `\`) {
				pending += strings.TrimSuffix(text, `\`)
				pendKind = kind
				continue
			}
			if err := finish(kind, pending+text, pendLine); err != nil {
				return nil, err
			}
			pendKind, pending = "", ""
		case "XFAIL:":
			t.XFail = append(t.XFail, splitList(text)...)
		case "REQUIRES:":
			t.Requires = append(t.Requires, splitList(text)...)
		case "UNSUPPORTED:":
			t.Unsupported = append(t.Unsupported, splitList(text)...)
		}
	}
	if pendKind != "" {
		return nil, fmt.Errorf("%s: last %s line ends with '\\'", name, strings.TrimSuffix(pendKind, ":"))
	}
	if len(t.Run) == 0 {
		return nil, fmt.Errorf("%s: no RUN lines", name)
	}
	return t, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// Builtins are lit's built-in substitutions for the test file testPath run
// in the temporary directory tmpDir, in the order lit applies them.
func Builtins(testPath, tmpDir string) []Subst {
	dir := filepath.Dir(testPath)
	base := filepath.Base(testPath)
	tmpBase := filepath.Join(tmpDir, base)
	tmpName := tmpBase + ".tmp"
	slash := filepath.ToSlash
	noColon := func(p string) string {
		return strings.TrimPrefix(strings.ReplaceAll(slash(p), ":", ""), "/")
	}
	regex := func(p string) string { return regexp.QuoteMeta(slash(p)) }
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	return []Subst{
		{"%{pathsep}", string(filepath.ListSeparator)},
		{"%basename_t", base},
		{"%{fs-src-root}", "/"},
		{"%{fs-tmp-root}", "/"},
		{"%{fs-sep}", string(filepath.Separator)},
		{"%s", testPath},
		{"%S", dir},
		{"%p", dir},
		{"%t", tmpName},
		{"%T", tmpDir},
		{"%{s:basename}", base},
		{"%{t:stem}", base},
		{"%{s:stem}", stem},
		{"%/s", slash(testPath)},
		{"%/S", slash(dir)},
		{"%/p", slash(dir)},
		{"%/t", slash(tmpName)},
		{"%/T", slash(tmpDir)},
		{"%{/s:regex_replacement}", regex(testPath)},
		{"%{/S:regex_replacement}", regex(dir)},
		{"%{/p:regex_replacement}", regex(dir)},
		{"%{/t:regex_replacement}", regex(tmpName)},
		{"%{/T:regex_replacement}", regex(tmpDir)},
		{"%:s", noColon(testPath)},
		{"%:S", noColon(dir)},
		{"%:p", noColon(dir)},
		{"%:t", noColon(tmpName)},
		{"%:T", noColon(tmpDir)},
	}
}

// Apply applies substitution lists in order, each key replaced everywhere
// in turn, as lit does: "%%" is set aside first and becomes "%" last, and
// unknown %x (such as FileCheck's -D#%x,VAR=...) stay as they are.
func Apply(cmd string, lists ...[]Subst) string {
	cmd = strings.ReplaceAll(cmd, "%%", percentMarker)
	for _, l := range lists {
		for _, s := range l {
			cmd = strings.ReplaceAll(cmd, s.Key, s.Value)
		}
	}
	return strings.ReplaceAll(cmd, percentMarker, "%")
}

// Expand is Apply for a RUN command: the configured substitutions as they
// are (they are shell text), then the built-in ones (paths and names),
// each quoted for where it lands when it holds characters the shell would
// read (see quote.go).
func Expand(cmd string, config, builtins []Subst) string {
	cmd = strings.ReplaceAll(cmd, "%%", percentMarker)
	for _, s := range config {
		cmd = strings.ReplaceAll(cmd, s.Key, s.Value)
	}
	cmd = replaceQuoted(cmd, builtins)
	return strings.ReplaceAll(cmd, percentMarker, "%")
}

// Substitute applies lit's built-in substitutions to a RUN command for the
// test file testPath with the temporary directory tmpDir: %s is the test
// file, %S and %p its directory, %t a per-test temporary path, %T the
// temporary directory, %% a literal percent sign, and so on (Builtins),
// quoted as Expand quotes them.
func Substitute(cmd, testPath, tmpDir string) string {
	return Expand(cmd, nil, Builtins(testPath, tmpDir))
}
