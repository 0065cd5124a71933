package filecheck

import (
	"strings"
	"testing"
)

// fcCase is one run of Check: its exit status and fragments that must
// appear, in order, in its diagnostics.
type fcCase struct {
	name  string
	check string
	input string
	opts  Options
	exit  int
	want  []string
	not   []string
}

func runCase(t *testing.T, c fcCase) string {
	t.Helper()
	o := c.opts
	if o.DumpInput == "" {
		o.DumpInput = "never"
	}
	var stderr strings.Builder
	got := Check(o, Source{Name: "check.txt", Text: c.check}, Source{Name: "input.txt", Text: c.input}, &stderr)
	out := stderr.String()
	if got != c.exit {
		t.Errorf("exit status %d, want %d; stderr:\n%s", got, c.exit, out)
	}
	rest := out
	for _, w := range c.want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("stderr lacks %q (in order); stderr:\n%s", w, out)
			break
		}
		rest = rest[i+len(w):]
	}
	for _, n := range c.not {
		if strings.Contains(out, n) {
			t.Errorf("stderr has %q; stderr:\n%s", n, out)
		}
	}
	return out
}

func runCases(t *testing.T, cases []fcCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

func TestDirectives(t *testing.T) {
	runCases(t, []fcCase{
		{name: "plain", check: "CHECK: b\n", input: "a\nb\n"},
		{name: "plain-missing", check: "CHECK: z\n", input: "a\nb\n", exit: 1,
			want: []string{"check.txt:1:8: error: CHECK: expected string not found in input\nCHECK: z\n       ^\n", "input.txt:1:1: note: scanning from here\n"}},
		{name: "order", check: "CHECK: b\nCHECK: a\n", input: "a\nb\n", exit: 1},
		{name: "next", check: "CHECK: a\nCHECK-NEXT: b\n", input: "a\nb\n"},
		{name: "next-skips-line", check: "CHECK: a\nCHECK-NEXT: c\n", input: "a\nb\nc\n", exit: 1,
			want: []string{"error: CHECK-NEXT: is not on the line after the previous match", "note: 'next' match was here", "note: previous match ended here", "note: non-matching line after previous match is here"}},
		{name: "next-same-line", check: "CHECK: a\nCHECK-NEXT: b\n", input: "a b\n", exit: 1,
			want: []string{"error: CHECK-NEXT: is on the same line as previous match"}},
		{name: "next-first", check: "CHECK-NEXT: a\n", input: "a\n", exit: 2,
			want: []string{"error: found 'CHECK-NEXT' without previous 'CHECK: line"}},
		{name: "same", check: "CHECK: a\nCHECK-SAME: b\n", input: "a b\n"},
		{name: "same-wrong-line", check: "CHECK: a\nCHECK-SAME: b\n", input: "a\nb\n", exit: 1,
			want: []string{"error: CHECK-SAME: is not on the same line as the previous match"}},
		{name: "same-first", check: "CHECK-SAME: a\n", input: "a\n", exit: 2,
			want: []string{"found 'CHECK-SAME' without previous 'CHECK: line"}},
		{name: "empty", check: "CHECK: a\nCHECK-EMPTY:\nCHECK-NEXT: b\n", input: "a\n\nb\n"},
		{name: "empty-missing", check: "CHECK: a\nCHECK-EMPTY:\n", input: "a\nb\n", exit: 1,
			want: []string{"error: CHECK-EMPTY: is not on the line after the previous match"}},
		{name: "empty-first", check: "CHECK-EMPTY:\n", input: "\n", exit: 2,
			want: []string{"found 'CHECK-EMPTY' without previous 'CHECK: line"}},
		{name: "empty-nonempty", check: "CHECK: a\nCHECK-EMPTY: x\n", input: "a\n", exit: 2,
			want: []string{"error: found non-empty check string for empty check with prefix 'CHECK:'"}},
		{name: "empty-pattern", check: "CHECK:\n", input: "a\n", exit: 2,
			want: []string{"error: found empty check string with prefix 'CHECK:'"}},
		{name: "not", check: "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", input: "a\nx\nc\n"},
		{name: "not-found", check: "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", input: "a\nb\nc\n", exit: 1,
			want: []string{"check.txt:2:12: error: CHECK-NOT: excluded string found in input", "input.txt:2:1: note: found here\nb\n^\n"}},
		{name: "not-at-end", check: "CHECK: a\nCHECK-NOT: b\n", input: "a\nb\n", exit: 1,
			want: []string{"CHECK-NOT: excluded string found in input"}},
		{name: "dag", check: "CHECK-DAG: b\nCHECK-DAG: a\nCHECK: c\n", input: "a\nb\nc\n"},
		{name: "dag-missing", check: "CHECK-DAG: b\nCHECK-DAG: z\n", input: "a\nb\n", exit: 1,
			want: []string{"error: CHECK-DAG: expected string not found in input"}},
		{name: "dag-no-overlap", check: "CHECK-DAG: a\nCHECK-DAG: a\n", input: "a\n", exit: 1},
		{name: "dag-overlap-allowed", check: "CHECK-DAG: a\nCHECK-DAG: a\n", input: "a\n",
			opts: Options{AllowDeprecatedDagOverlap: true}},
		{name: "dag-not-dag", check: "CHECK-DAG: a\nCHECK-NOT: x\nCHECK-DAG: b\n", input: "a\nx\nb\n", exit: 1,
			want: []string{"CHECK-NOT: excluded string found in input"}},
		{name: "label", check: "CHECK-LABEL: f\nCHECK: x\nCHECK-LABEL: g\nCHECK: y\n", input: "f\nx\ng\ny\n"},
		{name: "label-blocks", check: "CHECK-LABEL: f\nCHECK: y\nCHECK-LABEL: g\n", input: "f\nx\ng\ny\n", exit: 1,
			want: []string{"CHECK: expected string not found in input"}},
		{name: "label-missing", check: "CHECK-LABEL: q\n", input: "f\n", exit: 1,
			want: []string{"CHECK-LABEL: expected string not found in input"}},
		{name: "label-var", check: "CHECK-LABEL: [[X:f]]\n", input: "f\n", exit: 2,
			want: []string{"error: found 'CHECK-LABEL:' with variable definition or use"}},
		{name: "count", check: "CHECK-COUNT-2: op\nCHECK-NEXT: end\n", input: "op\nop\nend\n"},
		{name: "count-short", check: "CHECK-COUNT-3: op\n", input: "op\nop\n", exit: 1,
			want: []string{"error: CHECK-COUNT: expected string not found in input (3 out of 3)"}},
		{name: "count-bad", check: "CHECK-COUNT-0: op\n", input: "op\n", exit: 2,
			want: []string{"error: invalid count in -COUNT specification on prefix 'CHECK'"}},
		{name: "com", check: "COM: CHECK: z\nCHECK: a\n", input: "a\n"},
		{name: "literal", check: "CHECK{LITERAL}: {{a}}\n", input: "{{a}}\n"},
		{name: "bad-not", check: "CHECK-DAG-NOT: a\n", input: "a\n", exit: 2,
			want: []string{"error: unsupported -NOT combo on prefix 'CHECK'"}},
		{name: "misspelled", check: "CHECK_NEXT: a\n", input: "a\n", exit: 2,
			want: []string{"error: misspelled directive 'CHECK_NEXT:'"}},
		{name: "no-checks", check: "nothing\n", input: "a\n", exit: 2,
			want: []string{"error: no check strings found with prefix 'CHECK:'"}},
		{name: "prefix-in-word", check: "XCHECK: z\nCHECK: a\n", input: "a\n"},
		{name: "possible-intended-match", check: "CHECK: a\nCHECK: hello world\n", input: "a\nb\nhello word\n", exit: 1,
			want: []string{"input.txt:1:2: note: scanning from here", "input.txt:3:1: note: possible intended match here\nhello word\n^\n"}},
	})
}

func TestRegex(t *testing.T) {
	runCases(t, []fcCase{
		{name: "class", check: "CHECK: x{{[0-9]+}}y\n", input: "x123y\n"},
		{name: "posix-class", check: "CHECK: {{[[:upper:]][[:digit:]]}}\n", input: "A1\n"},
		{name: "escaped-dot", check: "CHECK: a{{\\.}}b\n", input: "axb\na.b\n"},
		{name: "escape-is-literal", check: "CHECK: {{^\\n$}}\n", input: "n\n"},
		{name: "dot-no-newline", check: "CHECK: a{{.*}}b\n", input: "a\nb\n", exit: 1},
		{name: "negated-no-newline", check: "CHECK: a{{[^x]}}b\n", input: "a\nb\n", exit: 1},
		{name: "alternation-grouped", check: "CHECK: a{{b|c}}d\n", input: "acd\n"},
		{name: "leftmost-longest", check: "CHECK: {{a|ab}}\nCHECK-SAME: c\n", input: "abc\n"},
		{name: "leftmost-longest-2", check: "CHECK: {{a|ab}}\nCHECK-SAME: {{^}}b\n", input: "abc\n", exit: 1},
		{name: "backref", check: "CHECK: {{(a+)-\\1}}\n", input: "aa-a\naa-aa\n"},
		{name: "backref-mismatch", check: "CHECK: {{^(a+)-\\1$}}\n", input: "aa-a\n", exit: 1},
		{name: "bounds", check: "CHECK: {{^a{2,3}$}}\n", input: "a\naaa\n"},
		{name: "anchors", check: "CHECK: {{^b$}}\n", input: "ab\nb\n"},
		{name: "bracket-specials", check: "CHECK: {{[]a-]+}}x\n", input: "]-ax\n"},
		{name: "ignore-case-regex", check: "CHECK: {{[a-c]+}}D\n", input: "ABCd\n", opts: Options{IgnoreCase: true}},
		{name: "err-empty", check: "CHECK: {{}}\n", input: "a\n", exit: 2,
			want: []string{"check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{}}\n         ^\n"}},
		{name: "err-badrpt", check: "CHECK: {{*}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: repetition-operator operand invalid"}},
		{name: "err-paren", check: "CHECK: {{(a}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: parentheses not balanced"}},
		{name: "err-brack", check: "CHECK: {{[a}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: brackets ([ ]) not balanced"}},
		{name: "err-brace", check: "CHECK: {{a{1}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: braces not balanced"}},
		{name: "err-badbr", check: "CHECK: {{a{2,1}}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: invalid repetition count(s)"}},
		{name: "err-range", check: "CHECK: {{[z-a]}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: invalid character range"}},
		{name: "err-ctype", check: "CHECK: {{[[:nope:]]}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: invalid character class"}},
		{name: "err-collate", check: "CHECK: {{[[.nope.]]}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: invalid collating element"}},
		{name: "err-escape", check: "CHECK: {{a\\}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: trailing backslash (\\)"}},
		{name: "err-subreg", check: "CHECK: {{\\1}}\n", input: "a\n", exit: 2, want: []string{"invalid regex: invalid backreference number"}},
		{name: "err-no-end", check: "CHECK: {{a\n", input: "a\n", exit: 2, want: []string{"error: found start of regex string with no end '}}'"}},
	})
}

func TestVariables(t *testing.T) {
	runCases(t, []fcCase{
		{name: "def-use", check: "CHECK: def [[R:[a-z]+]]\nCHECK: use [[R]]\n", input: "def abc\nuse abc\n"},
		{name: "def-use-mismatch", check: "CHECK: def [[R:[a-z]+]]\nCHECK: use [[R]]\n", input: "def abc\nuse abd\n", exit: 1,
			want: []string{"error: CHECK: expected string not found in input", "note: with \"R\" equal to \"abc\""}},
		{name: "same-line-backref", check: "CHECK: [[V:[a-z]+]]-[[V]]\n", input: "ab-ac ab-ab\n"},
		{name: "regex-metachars-in-value", check: "CHECK: [[V:.*]]\nCHECK: [[V]]\n", input: "a.b*\nxa.b*y\n"},
		{name: "cmdline", check: "CHECK: v=[[X]]\n", input: "v=5\n", opts: Options{GlobalDefines: []string{"X=5"}}},
		{name: "cmdline-bad-name", check: "CHECK: a\n", input: "a\n", opts: Options{GlobalDefines: []string{"X+1=5"}}, exit: 2,
			want: []string{"Global defines:1:19: error: invalid name in string variable definition 'X+1'"}},
		{name: "cmdline-no-equal", check: "CHECK: a\n", input: "a\n", opts: Options{GlobalDefines: []string{"X"}}, exit: 2,
			want: []string{"error: missing equal sign in global definition"}},
		{name: "undefined", check: "CHECK: [[NOPE]]\n", input: "a\n", exit: 1,
			want: []string{"check.txt:1:10: error: undefined variable: NOPE"}},
		{name: "var-scope", check: "CHECK: [[L:a]] [[$G:b]]\nCHECK-LABEL: f\nCHECK: [[L]]\n", input: "a b\nf\na\n",
			opts: Options{EnableVarScope: true}, exit: 1, want: []string{"undefined variable: L"}},
		{name: "var-scope-global", check: "CHECK: [[L:a]] [[$G:b]]\nCHECK-LABEL: f\nCHECK: [[$G]]\n", input: "a b\nf\nb\n",
			opts: Options{EnableVarScope: true}},
		{name: "no-scope", check: "CHECK: [[L:a]]\nCHECK-LABEL: f\nCHECK: [[L]]\n", input: "a\nf\na\n"},
		{name: "escaped-value-note", check: "CHECK: [[Q:\"]]\nCHECK: x[[Q]]\n", input: "\"\ny\n", exit: 1,
			want: []string{`note: with "Q" equal to "\"" (escaped value)`}},
		{name: "err-invalid-name", check: "CHECK: [[9:a]]\n", input: "a\n", exit: 2, want: []string{"error: invalid variable name"}},
		{name: "err-empty-name", check: "CHECK: [[#:]]\n", input: "a\n", exit: 2, want: []string{"error: empty variable name"}},
		{name: "err-empty-global", check: "CHECK: [[$]]\n", input: "a\n", exit: 2, want: []string{"error: empty global variable name"}},
		{name: "err-whitespace", check: "CHECK: [[A B]]\n", input: "a\n", exit: 2, want: []string{"error: unexpected whitespace"}},
		{name: "err-use-name", check: "CHECK: [[A+1]]\n", input: "a\n", exit: 2, want: []string{"error: invalid name in string variable use"}},
		{name: "err-def-name", check: "CHECK: [[@LINE:a]]\n", input: "a\n", exit: 2, want: []string{"error: invalid name in string variable definition"}},
		{name: "err-no-end", check: "CHECK: [[A\n", input: "a\n", exit: 2, want: []string{"error: Invalid substitution block, no ]] found"}},
		{name: "err-stray-bracket", check: "CHECK: [[A:a]b]]\n", input: "a\n", exit: 1, want: []string{`error: missing closing "]" for regex variable`}},
		{name: "err-numeric-exists", check: "CHECK: [[#N:]]\nCHECK: [[N:a]]\n", input: "1\na\n", exit: 2,
			want: []string{"error: numeric variable with name 'N' already exists"}},
		{name: "err-string-exists", check: "CHECK: [[N:a]]\nCHECK: [[#N:]]\n", input: "a\n1\n", exit: 2,
			want: []string{"error: string variable with name 'N' already exists"}},
		{name: "err-cmdline-numeric-exists", check: "CHECK: a\n", input: "a\n", exit: 2,
			opts: Options{GlobalDefines: []string{"#N=1", "N=2"}}, want: []string{"error: numeric variable with name 'N' already exists"}},
	})
}

func TestNumeric(t *testing.T) {
	runCases(t, []fcCase{
		{name: "def-use", check: "CHECK: r[[#N:]]\nCHECK: r[[#N+1]] r[[#N-1]]\n", input: "r5\nr6 r4\n"},
		{name: "hex", check: "CHECK: 0x[[#%x,A:]]\nCHECK: [[#%X,A+1]]\n", input: "0xff\n100\n"},
		{name: "alt-form", check: "CHECK: [[#%#x,A:]]\nCHECK: [[#%#x,A]]\n", input: "0x1f\n0x1f\n"},
		{name: "precision", check: "CHECK: [[#%.3u,7]]\n", input: "007\n"},
		{name: "signed", check: "CHECK: [[#%d,N:]]\nCHECK: [[#N-10]]\n", input: "3\n-7\n"},
		{name: "unsigned-negative", check: "CHECK: [[#N:]]\nCHECK: [[#N-10]]\n", input: "3\n-7\n", exit: 1,
			want: []string{"error: unable to substitute variable or numeric expression: overflow error"}},
		{name: "functions", check: "CHECK: [[#add(2,3)]] [[#sub(9,2)]] [[#mul(3,4)]] [[#div(9,2)]] [[#max(1,8)]] [[#min(1,8)]]\n", input: "5 7 12 4 8 1\n"},
		{name: "div-zero", check: "CHECK: [[#div(1,0)]]\n", input: "1\n", exit: 1, want: []string{"overflow error"}},
		{name: "nested", check: "CHECK: [[#(1+2)-(3-4)]]\n", input: "4\n"},
		{name: "constraint", check: "CHECK: [[#N:==5]]\n", input: "5\n"},
		{name: "line", check: "x\nCHECK: [[#@LINE]] [[@LINE-1]]\n", input: "2 1\n"},
		{name: "cmdline", check: "CHECK: [[#N]] [[#%x,H]]\n", input: "3 ff\n", opts: Options{GlobalDefines: []string{"#N=3", "#%x,H=255"}}},
		{name: "big", check: "CHECK: [[#N:]]\nCHECK: [[#N+1]]\n", input: "18446744073709551615\n18446744073709551616\n"},
		{name: "undefined", check: "CHECK: [[#M+1]]\n", input: "1\n", exit: 1, want: []string{"error: undefined variable: M"}},
		{name: "captured-note", check: "CHECK: [[#N:]]\n", input: "7\n", opts: Options{Verbose: true},
			want: []string{"remark: CHECK: expected string found in input", "note: captured var \"N\""}},
		{name: "err-same-directive", check: "CHECK: [[#N:]] [[#N]]\n", input: "1 1\n", exit: 2,
			want: []string{"error: numeric variable 'N' defined earlier in the same CHECK directive"}},
		{name: "err-op", check: "CHECK: [[#1*2]]\n", input: "2\n", exit: 2, want: []string{"error: unsupported operation '*'"}},
		{name: "err-operand", check: "CHECK: [[#1+]]\n", input: "2\n", exit: 2, want: []string{"error: missing operand in expression"}},
		{name: "err-operand-format", check: "CHECK: [[#!]]\n", input: "2\n", exit: 2, want: []string{"error: invalid matching constraint or operand format"}},
		{name: "err-operand-format-constraint", check: "CHECK: [[#==!]]\n", input: "2\n", exit: 2, want: []string{"error: invalid operand format"}},
		{name: "err-format", check: "CHECK: [[#%q,N:]]\n", input: "2\n", exit: 2, want: []string{"error: invalid format specifier in expression"}},
		{name: "err-format-spec", check: "CHECK: [[#x,N:]]\n", input: "2\n", exit: 2, want: []string{"error: invalid matching format specification in expression"}},
		{name: "err-precision", check: "CHECK: [[#%.x,N:]]\n", input: "2\n", exit: 2, want: []string{"error: invalid precision in format specifier"}},
		{name: "err-alt", check: "CHECK: [[#%#u,N:]]\n", input: "2\n", exit: 2, want: []string{"error: alternate form only supported for hex values"}},
		{name: "err-pseudo-def", check: "CHECK: [[#@LINE:]]\n", input: "2\n", exit: 2, want: []string{"error: definition of pseudo numeric variable unsupported"}},
		{name: "err-pseudo-use", check: "CHECK: [[#@FOO]]\n", input: "2\n", exit: 2, want: []string{"error: invalid pseudo numeric variable '@FOO'"}},
		{name: "err-empty-pseudo", check: "CHECK: [[@]]\n", input: "2\n", exit: 2, want: []string{"error: empty pseudo variable name"}},
		{name: "err-after-name", check: "CHECK: [[#N x:]]\n", input: "2\n", exit: 2, want: []string{"error: unexpected characters after numeric variable name"}},
		{name: "err-empty-constraint", check: "CHECK: [[#N:==]]\n", input: "2\n", exit: 2, want: []string{"error: empty numeric expression should not have a constraint"}},
		{name: "err-format-conflict", check: "CHECK: [[#%x,A:]] [[#B:]]\nCHECK: [[#A+B]]\n", input: "1 2\n3\n", exit: 2,
			want: []string{"error: implicit format conflict between 'A' (%x) and 'B' (%u), need an explicit format specifier"}},
		{name: "err-format-redef", check: "CHECK: [[#%x,A:]]\nCHECK: [[#A:]]\n", input: "1\n2\n", exit: 2, want: []string{"error: format different from previous variable definition"}},
		{name: "err-function", check: "CHECK: [[#foo(1,2)]]\n", input: "2\n", exit: 2, want: []string{"error: call to undefined function 'foo'"}},
		{name: "err-arity", check: "CHECK: [[#add(1)]]\n", input: "2\n", exit: 2, want: []string{"error: function 'add' takes 2 arguments but 1 given"}},
		{name: "err-missing-arg", check: "CHECK: [[#add(1,)]]\n", input: "2\n", exit: 2, want: []string{"error: missing argument"}},
		{name: "err-call-paren", check: "CHECK: [[#add(1,2]]\n", input: "2\n", exit: 2, want: []string{"error: missing ')' at end of call expression"}},
		{name: "err-nested-paren", check: "CHECK: [[#(1+2]]\n", input: "2\n", exit: 2, want: []string{"error: missing ')' at end of nested expression"}},
		{name: "err-legacy-call", check: "CHECK: [[@LINE+add(1,2)]]\n", input: "2\n", exit: 2, want: []string{"error: invalid operand format"}},
		{name: "err-legacy-trailing", check: "CHECK: [[@LINE+1+2]]\n", input: "2\n", exit: 2, want: []string{"error: unexpected characters at end of expression '+2'"}},
		{name: "err-paren-legacy", check: "CHECK: [[@LINE+(1)]]\n", input: "2\n", exit: 2, want: []string{"error: parenthesized expression not permitted here"}},
		{name: "err-cmdline-empty-expr", check: "CHECK: a\n", input: "a\n", opts: Options{GlobalDefines: []string{"#N="}}, exit: 2,
			want: []string{"error: missing numeric expression"}},
		{name: "err-cmdline-undefined", check: "CHECK: a\n", input: "a\n", opts: Options{GlobalDefines: []string{"#N=M+1"}}, exit: 2,
			want: []string{"undefined variable: M\n"}},
	})
}

func TestOptions(t *testing.T) {
	runCases(t, []fcCase{
		{name: "prefixes", check: "A: a\nB: b\n", input: "a\nb\n", opts: Options{CheckPrefixes: []string{"A", "B"}}},
		{name: "unused-prefix", check: "A: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A", "B"}}, exit: 2,
			want: []string{"error: no check strings found with prefix 'B:'"}},
		{name: "unused-prefixes", check: "x\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A", "B"}}, exit: 2,
			want: []string{"error: no check strings found with prefixes 'A:', 'B:'"}},
		{name: "allow-unused", check: "A: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A", "B"}, AllowUnusedPrefixes: true}},
		{name: "bad-prefix", check: "A: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A!"}}, exit: 2,
			want: []string{"error: supplied check prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: 'A!'"}},
		{name: "empty-prefix", check: "A: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{""}}, exit: 2,
			want: []string{"error: supplied check prefix must not be the empty string"}},
		{name: "duplicate-prefix", check: "A: a\n", input: "a\n", opts: Options{CheckPrefixes: []string{"A", "A"}}, exit: 2,
			want: []string{"error: supplied check prefix must be unique among check and comment prefixes: 'A'"}},
		{name: "comment-prefixes", check: "NOTE: CHECK: z\nCHECK: a\n", input: "a\n", opts: Options{CommentPrefixes: []string{"NOTE"}}},
		{name: "implicit-check-not", check: "CHECK: a\n", input: "a\nbad\n", opts: Options{ImplicitCheckNot: []string{"bad"}}, exit: 1,
			want: []string{"command line:1:22: error: IMPLICIT-CHECK-NOT: excluded string found in input\n-implicit-check-not='bad'\n                     ^\n"}},
		{name: "implicit-check-not-ok", check: "CHECK: bad\n", input: "a\nbad\n", opts: Options{ImplicitCheckNot: []string{"bad"}}},
		{name: "implicit-only", check: "", input: "a\n", opts: Options{ImplicitCheckNot: []string{"b"}}},
		{name: "whitespace-folded", check: "CHECK: a b\n", input: "a \t  b\n"},
		{name: "strict-whitespace", check: "CHECK: a b\n", input: "a \t  b\n", opts: Options{StrictWhitespace: true}, exit: 1},
		{name: "match-full-lines", check: "CHECK: b\n", input: "abc\n", opts: Options{MatchFullLines: true}, exit: 1},
		{name: "match-full-lines-ok", check: "CHECK: abc\n", input: "  abc  \n", opts: Options{MatchFullLines: true}},
		{name: "match-full-lines-strict", check: "CHECK: abc\n", input: "  abc\n", opts: Options{MatchFullLines: true, StrictWhitespace: true}, exit: 1},
		{name: "ignore-case", check: "CHECK: HeLLo\n", input: "hello\n", opts: Options{IgnoreCase: true}},
		{name: "case-sensitive", check: "CHECK: HeLLo\n", input: "hello\n", exit: 1},
		{name: "empty-input", check: "CHECK-NOT: a\n", input: "", exit: 2, want: []string{"FileCheck error: 'input.txt' is empty."}},
		{name: "allow-empty", check: "CHECK-NOT: a\n", input: "", opts: Options{AllowEmptyInput: true}},
		{name: "verbose", check: "CHECK: a\n", input: "a\n", opts: Options{Verbose: true},
			want: []string{"check.txt:1:8: remark: CHECK: expected string found in input", "input.txt:1:1: note: found here\na\n^\n"}},
		{name: "verbose-verbose", check: "CHECK: a\nCHECK-NOT: b\nCHECK: c\n", input: "a\nc\n", opts: Options{VerboseVerbose: true},
			want: []string{"remark: CHECK-NOT: excluded string not found in input"}},
		{name: "dos-line-endings", check: "CHECK: a\r\nCHECK-NEXT: b\r\n", input: "a\r\nb\r\n"},
		{name: "color", check: "CHECK: z\n", input: "a\n", opts: Options{Color: true}, exit: 1, want: []string{"\x1b[0;1;31merror: \x1b[0m"}},
	})
}

func TestDump(t *testing.T) {
	out := runCase(t, fcCase{check: "CHECK: hello\nCHECK-NEXT: word\n", input: "hello\nworld\n", exit: 1, opts: Options{DumpInput: "fail"}})
	want := `
Input file: input.txt
Check file: check.txt

-dump-input=help explains the following input dump.

Input was:
<<<<<<
          1: hello 
next:2'0          X error: no match found
          2: world 
next:2'0     ~~~~~~
next:2'1     ?      possible intended match
>>>>>>
`
	if !strings.HasSuffix(out, want) {
		t.Errorf("dump:\n%s\nwant suffix:\n%s", out, want)
	}

	out = runCase(t, fcCase{check: "CHECK: b\n", input: "a\nb\nc\n", opts: Options{DumpInput: "always", Verbose: true}})
	want = `<<<<<<
         1: a 
         2: b 
check:1     ^
         3: c 
>>>>>>
`
	if !strings.HasSuffix(out, want) {
		t.Errorf("dump:\n%s\nwant suffix:\n%s", out, want)
	}

	// Filtering elides lines far from errors.
	input := strings.Repeat("x\n", 20) + "y\n"
	out = runCase(t, fcCase{check: "CHECK: z\n", input: input, exit: 1, opts: Options{DumpInput: "fail", DumpContext: 1}})
	if !strings.Contains(out, "         .\n         .\n         .\n") {
		t.Errorf("no ellipsis in filtered dump:\n%s", out)
	}

	out = runCase(t, fcCase{check: "CHECK: a\n", input: "a\n", opts: Options{DumpInput: "never"}})
	if out != "" {
		t.Errorf("unexpected output with DumpInput=never:\n%s", out)
	}
}

func TestCanonicalize(t *testing.T) {
	for _, c := range []struct{ in, want, strict string }{
		{"a  \t b\r\nc", "a b\nc", "a  \t b\nc"},
		{"\r\r\n", "\r\n", "\r\n"},
	} {
		if got := canonicalize(c.in, false); got != c.want {
			t.Errorf("canonicalize(%q) = %q, want %q", c.in, got, c.want)
		}
		if got := canonicalize(c.in, true); got != c.strict {
			t.Errorf("canonicalize(%q, strict) = %q, want %q", c.in, got, c.strict)
		}
	}
}
