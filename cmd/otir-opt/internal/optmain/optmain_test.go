package optmain

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/passes"
)

// Inputs shared by the tests (see fakeParse for the mini language).
var inputs = map[string]string{
	"dup.otir":   "const 1\nconst 1\nadd 0 1\n",
	"dead.otir":  "const 1\nconst 2\nadd 0 1\nconst 3\n",
	"bad.otir":   "const 1\nbad\n",
	"warn.otir":  "warn\n",
	"parse.otir": "const 1\nnonsense 2\n",
	"split.otir": "const 1\n// -----\nconst 2\nbad\n// -----\nconst 3\n",
	"expect.otir": "const 1\n" +
		"// expected-error @+2 {{is bad}}\n" +
		"// expected-note @+1 {{bad op}}\n" +
		"bad\n" +
		"warn // expected-warning-re {{op is {{[a-z]+}}}}\n",
	"expect-split.otir": "bad // expected-error {{op is bad}}\n" +
		"// expected-note @-1 {{here}}\n" +
		"// -----\n" +
		"const 1 // expected-error {{never produced}}\n" +
		"// -----\n" +
		"nonsense // expected-error {{unknown instruction 'nonsense'}}\n" +
		"// -----\n" +
		"bad\n",
}

const moduleDup = `module {
  otir.kernel @k() {
    %c1 = otir.constant 1 : index
    %c1_0 = otir.constant 1 : index
    %0 = otir.add %c1, %c1_0 : index
    otir.return
  }
}

`

const moduleDupCSE = `module {
  otir.kernel @k() {
    %c1 = otir.constant 1 : index
    %0 = otir.add %c1, %c1 : index
    otir.return
  }
}

`

const moduleEmpty = `module {
  otir.kernel @k() {
    otir.return
  }
}

`

func TestOpt(t *testing.T) {
	cases := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "print", args: []string{"dup.otir"}, stdout: moduleDup},
		{name: "stdin by default", stdin: inputs["dup.otir"], stdout: moduleDup},
		{name: "stdin dash", stdin: inputs["dup.otir"], args: []string{"-", "--cse"}, stdout: moduleDupCSE},
		{name: "cse", args: []string{"dup.otir", "--cse"}, stdout: moduleDupCSE},
		{name: "flags before file", args: []string{"--cse", "dup.otir"}, stdout: moduleDupCSE},
		{name: "single dash flags", args: []string{"-cse", "dup.otir"}, stdout: moduleDupCSE},
		{name: "dce", args: []string{"dead.otir", "--dce"}, stdout: moduleEmpty},
		{name: "pipeline", args: []string{"dup.otir", "--pass-pipeline=builtin.module(cse, dce)"}, stdout: moduleEmpty},
		{name: "pipeline separate value", args: []string{"dup.otir", "--pass-pipeline", "builtin.module(cse,dce)"}, stdout: moduleEmpty},
		{name: "generic", args: []string{"dup.otir", "--cse", "--dce", "--print-op-generic"},
			stdout: "\"builtin.module\"() ({\n  \"otir.kernel\"() ({\n    \"otir.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"k\"} : () -> ()\n}) : () -> ()\n\n"},
		{name: "mlir generic alias", args: []string{"dead.otir", "--dce", "--mlir-print-op-generic"},
			stdout: "\"builtin.module\"() ({\n  \"otir.kernel\"() ({\n    \"otir.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"k\"} : () -> ()\n}) : () -> ()\n\n"},

		{name: "verifier error", args: []string{"bad.otir"}, code: 1,
			stderr: "bad.otir:2:1: error: op is bad\nbad\n^\nbad.otir:2:1: note: bad op here\n"},
		{name: "warning succeeds", args: []string{"warn.otir", "--dce"},
			stdout: "module {\n  otir.kernel @k() {\n    otir.return\n  }\n}\n\n",
			stderr: "warn.otir:1:1: warning: op is suspicious\nwarn\n^\n"},
		{name: "parse error", args: []string{"parse.otir"}, code: 1,
			stderr: "parse.otir:2:1: error: unknown instruction 'nonsense'\nnonsense 2\n^\n"},
		{name: "parse error on stdin", stdin: "\n  nonsense\n", code: 1,
			stderr: "<stdin>:2:3: error: unknown instruction 'nonsense'\n  nonsense\n  ^\n"},
		{name: "pass error keeps location", args: []string{"dup.otir", "--cse", "--test-fail"}, code: 1,
			stderr: "dup.otir:1:1: error: cannot handle this constant\nconst 1\n^\n"},
		{name: "verify each names the pass", args: []string{"dup.otir", "--test-break", "--cse"}, code: 1,
			stderr: "dup.otir:1:1: error: op is bad\nconst 1\n^\ndup.otir:1:1: note: bad op here\nnote: the IR was made invalid by pass 'test-break' (TestBreak)\n"},
		{name: "verify-each=false", args: []string{"dup.otir", "--test-break", "--verify-each=false", "--dce"},
			stdout: "module {\n  otir.kernel @k() {\n    otir.return\n  }\n}\n\n"},

		{name: "split", args: []string{"split.otir", "--split-input-file"}, code: 1,
			stdout: "module {\n  otir.kernel @k() {\n    %c1 = otir.constant 1 : index\n    otir.return\n  }\n}\n\n" +
				"// -----\n" +
				"// -----\n" +
				"module {\n  otir.kernel @k() {\n    %c3 = otir.constant 3 : index\n    otir.return\n  }\n}\n\n",
			stderr: "split.otir:4:1: error: op is bad\nbad\n^\nsplit.otir:4:1: note: bad op here\n"},
		{name: "no split", args: []string{"split.otir", "--dce"}, code: 1,
			stderr: "split.otir:4:1: error: op is bad\nbad\n^\nsplit.otir:4:1: note: bad op here\n"},

		{name: "verify diagnostics met", args: []string{"expect.otir", "--verify-diagnostics"},
			stdout: ""},
		{name: "verify diagnostics split", args: []string{"expect-split.otir", "--verify-diagnostics", "--split-input-file"}, code: 1,
			stdout: "// -----\nmodule {\n  otir.kernel @k() {\n    %c1 = otir.constant 1 : index\n    otir.return\n  }\n}\n\n// -----\n// -----\n",
			stderr: "expect-split.otir:4:12: error: expected error \"never produced\" was not produced\n" +
				"const 1 // expected-error {{never produced}}\n           ^\n" +
				"expect-split.otir:8:1: error: unexpected error: op is bad\nbad\n^\n" +
				"expect-split.otir:8:1: error: unexpected note: bad op here\nbad\n^\n"},
		{name: "verify diagnostics malformed", stdin: "const 1 // expected-error {{x}\n", args: []string{"--verify-diagnostics"}, code: 1,
			stderr: "<stdin>:1:12: error: malformed expected-error directive: expected '{{message}}' at the end of the line\n" +
				"const 1 // expected-error {{x}\n           ^\n"},
		{name: "verify diagnostics without expectations", args: []string{"dup.otir", "--verify-diagnostics", "--cse"}, stdout: moduleDupCSE},

		{name: "dump pipeline", args: []string{"dup.otir", "--cse", "--test-options=mode=b", "--dce", "--dump-pass-pipeline", "-o", "/dev/null"},
			stderr: "Pass Manager with 3 passes:\nbuiltin.module(cse,test-options{level=1 mode=b},dce)\n\n"},
		{name: "dump empty pipeline", args: []string{"dup.otir", "--dump-pass-pipeline", "-o=/dev/null"},
			stderr: "Pass Manager with 0 passes:\nbuiltin.module()\n\n"},
		{name: "short flag braces", args: []string{"dup.otir", "--test-options={level=3 mode=a}", "--dump-pass-pipeline", "-o", "-"},
			stdout: moduleDup, stderr: "Pass Manager with 1 passes:\nbuiltin.module(test-options{level=3 mode=a})\n\n"},
		{name: "repeated pass flags", args: []string{"dup.otir", "--dce", "--cse", "--dce", "--dump-pass-pipeline"},
			stdout: moduleEmpty, stderr: "Pass Manager with 3 passes:\nbuiltin.module(dce,cse,dce)\n\n"},

		{name: "print ir after all", args: []string{"dup.otir", "--cse", "--dce", "--print-ir-after-all", "-o", "/dev/null"},
			stderr: "// -----// IR Dump After CSE (cse) //----- //\n" + moduleDupCSE + "// -----// IR Dump After DCE (dce) //----- //\n" + moduleEmpty},
		{name: "print ir before all", args: []string{"dup.otir", "--cse", "--mlir-print-ir-before-all", "-o", "/dev/null"},
			stderr: "// -----// IR Dump Before CSE (cse) //----- //\n" + moduleDup},
		{name: "print ir before some", args: []string{"dup.otir", "--cse", "--dce", "--print-ir-before=dce", "-o", "/dev/null"},
			stderr: "// -----// IR Dump Before DCE (dce) //----- //\n" + moduleDupCSE},
		{name: "print ir after list", args: []string{"dup.otir", "--cse", "--dce", "--print-ir-after=dce,cse", "--print-op-generic", "-o", "/dev/null"},
			stderr: "// -----// IR Dump After CSE (cse) //----- //\n\"builtin.module\"() ({\n  \"otir.kernel\"() ({\n    %c1 = \"otir.constant\"() {value = 1 : index} : () -> index\n    %0 = \"otir.add\"(%c1, %c1) : (index, index) -> index\n    \"otir.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"k\"} : () -> ()\n}) : () -> ()\n\n" +
				"// -----// IR Dump After DCE (dce) //----- //\n\"builtin.module\"() ({\n  \"otir.kernel\"() ({\n    \"otir.return\"() : () -> ()\n  }) {function_type = () -> (), sym_name = \"k\"} : () -> ()\n}) : () -> ()\n\n"},
		{name: "print ir after failure", args: []string{"dup.otir", "--test-fail", "--print-ir-after=test-fail"}, code: 1,
			stderr: "// -----// IR Dump After TestFail Failed (test-fail) //----- //\n" + moduleDup +
				"dup.otir:1:1: error: cannot handle this constant\nconst 1\n^\n"},

		// Usage errors.
		{name: "unknown flag", args: []string{"--print-ir-afer-all"}, code: 1,
			stderr: "otir-opt: unknown flag --print-ir-afer-all, did you mean --print-ir-after-all?\n"},
		{name: "unknown single-dash flag", args: []string{"dup.otir", "-csee"}, code: 1,
			stderr: "otir-opt: unknown flag -csee, did you mean -cse?\n"},
		{name: "unknown flag without suggestion", args: []string{"--frobnicate"}, code: 1,
			stderr: "otir-opt: unknown flag --frobnicate (see otir-opt --help)\n"},
		{name: "missing flag value", args: []string{"dup.otir", "-o"}, code: 1,
			stderr: "otir-opt: flag -o needs a value\n"},
		{name: "bad bool value", args: []string{"dup.otir", "--timing=maybe"}, code: 1,
			stderr: "otir-opt: invalid boolean value \"maybe\" for -timing: parse error\n"},
		{name: "bad pipeline", args: []string{"dup.otir", "--pass-pipeline=builtin.module(cse,dcee)"}, code: 1,
			stderr: "otir-opt: invalid --pass-pipeline: 'dcee' does not refer to a registered pass, did you mean 'dce'?\n  builtin.module(cse,dcee)\n                     ^\n"},
		{name: "unwrapped pipeline", args: []string{"dup.otir", "--pass-pipeline=cse,dce"}, code: 1,
			stderr: "otir-opt: invalid --pass-pipeline: expected the pass pipeline to be wrapped in 'builtin.module(...)', e.g. 'builtin.module(cse,dce)'\n  cse,dce\n  ^\n"},
		{name: "pipeline and pass flags", args: []string{"dup.otir", "--dce", "--pass-pipeline=builtin.module(cse)"}, code: 1,
			stderr: "otir-opt: --pass-pipeline cannot be combined with pass flags such as --dce\n"},
		{name: "bad short flag option", args: []string{"dup.otir", "--test-options=mod=b"}, code: 1,
			stderr: "otir-opt: invalid --test-options=mod=b: pass 'test-options' has no option 'mod', did you mean 'mode'?\n"},
		{name: "bad short flag value", args: []string{"dup.otir", "--test-options=mode=c"}, code: 1,
			stderr: "otir-opt: invalid --test-options=mode=c: invalid value 'c' for option 'mode' of pass 'test-options' (expected one of: a, b)\n"},
		{name: "options on a pass without options", args: []string{"dup.otir", "--cse=aggressive=true"}, code: 1,
			stderr: "otir-opt: invalid --cse=aggressive=true: pass 'cse' has no option 'aggressive' (it takes no options)\n"},
		{name: "bad print-ir pass", args: []string{"dup.otir", "--print-ir-after=csee"}, code: 1,
			stderr: "otir-opt: unknown pass 'csee' in --print-ir-after, did you mean 'cse'?\n"},
		{name: "too many inputs", args: []string{"dup.otir", "dead.otir"}, code: 1,
			stderr: "otir-opt: too many input files: dup.otir dead.otir (otir-opt reads one file)\n"},
		{name: "missing input", args: []string{"nope.otir"}, code: 1,
			stderr: "otir-opt: cannot open input file 'nope.otir': no such file or directory\n"},
	}
	dir := writeFiles(t, inputs)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runOpt(t, dir, c.stdin, c.args...)
			if r.code != c.code {
				t.Errorf("exit code %d, want %d (stderr:\n%s)", r.code, c.code, r.stderr)
			}
			if r.stdout != c.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", r.stdout, c.stdout)
			}
			if r.stderr != c.stderr {
				t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, c.stderr)
			}
		})
	}
}

func TestOutputFile(t *testing.T) {
	dir := writeFiles(t, inputs)
	r := runOpt(t, dir, "", "dup.otir", "--cse", "-o", "out.otir")
	got, err := os.ReadFile(filepath.Join(dir, "out.otir"))
	if r.code != 0 || r.stdout != "" || err != nil || string(got) != moduleDupCSE {
		t.Errorf("code %d stdout %q err %v file:\n%s", r.code, r.stdout, err, got)
	}
	// On failure the output file is not written.
	r = runOpt(t, dir, "", "split.otir", "--split-input-file", "-o", "fail.otir")
	if _, err := os.Stat(filepath.Join(dir, "fail.otir")); r.code != 1 || err == nil {
		t.Errorf("code %d, output file written after a failure", r.code)
	}
	r = runOpt(t, dir, "", "dup.otir", "-o", filepath.Join(dir, "no/such/dir/out.otir"))
	if r.code != 1 || !strings.Contains(r.stderr, "cannot write output file") {
		t.Errorf("code %d stderr %s", r.code, r.stderr)
	}
	// A single module is printed straight to the file: a write that fails
	// half-way is an error, and only a regular file is removed after it.
	if fi, err := os.Stat("/dev/full"); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
		r = runOpt(t, dir, "", "dup.otir", "-o", "/dev/full")
		if r.code != 1 || !strings.Contains(r.stderr, "cannot write output file '/dev/full'") {
			t.Errorf("code %d stderr %s", r.code, r.stderr)
		}
		if fi, err := os.Stat("/dev/full"); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Errorf("/dev/full is gone or changed: %v", err)
		}
	}
}

// TestCPUProfile checks --cpuprofile: a profile file for go tool pprof
// (gzip-compressed protobuf), and an error for a file it cannot create.
func TestCPUProfile(t *testing.T) {
	dir := writeFiles(t, inputs)
	prof := filepath.Join(dir, "cpu.prof")
	r := runOpt(t, dir, "", "dup.otir", "--cse", "--cpuprofile", prof, "-o", "/dev/null")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("code %d, stderr %s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(prof); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Errorf("the profile is not a gzip file: %v %q", err, b)
	}
	bad := filepath.Join(dir, "missing", "cpu.prof")
	r = runOpt(t, dir, "", "dup.otir", "--cpuprofile="+bad)
	if want := "otir-opt: cannot write the CPU profile '" + bad + "': no such file or directory\n"; r.code != 1 || r.stderr != want {
		t.Errorf("code %d, stderr %q, want 1, %q", r.code, r.stderr, want)
	}
}

func TestTiming(t *testing.T) {
	dir := writeFiles(t, inputs)
	for _, flag := range []string{"--timing", "--mlir-timing"} {
		r := runOpt(t, dir, "", "dup.otir", "--cse", "--dce", flag, "-o", "/dev/null")
		re := regexp.MustCompile(`^===-+===
 +\.\.\. Execution time report \.\.\.
===-+===
  Total Execution Time: \d+\.\d{4} seconds

  ----Wall Time----  ----Name----
(?:    \d+\.\d{4} \( *\d+\.\d%\)  (Parser|Verifier|CSE|DCE|Output|Rest|Total)
)+$`)
		if r.code != 0 || !re.MatchString(r.stderr) {
			t.Fatalf("%s: code %d, report:\n%s", flag, r.code, r.stderr)
		}
		var names []string
		for _, m := range regexp.MustCompile(`%\)  (\S+)`).FindAllStringSubmatch(r.stderr, -1) {
			names = append(names, m[1])
		}
		want := "Parser Verifier CSE Verifier DCE Verifier Output Rest Total"
		if strings.Join(names, " ") != want {
			t.Errorf("rows %v, want %s", names, want)
		}
	}
	// One report per chunk.
	r := runOpt(t, dir, "", "split.otir", "--split-input-file", "--timing")
	if n := strings.Count(r.stderr, "Execution time report"); n != 3 {
		t.Errorf("%d reports for 3 chunks", n)
	}
}

func TestListPasses(t *testing.T) {
	r := runOpt(t, "", "", "--list-passes")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("code %d, stderr %s", r.code, r.stderr)
	}
	// Column widths depend on every registered pass: compare with runs of
	// spaces collapsed.
	got := "\n" + regexp.MustCompile(` +`).ReplaceAllString(r.stdout, " ")
	want := []string{
		"\nAvailable passes (use --<pass>[='opt=value ...'] or --pass-pipeline='builtin.module(<pass>{opt=value})'):\n",
		"\n cse Eliminate common subexpressions (identical pure operations)\n",
		"\n dce Remove operations whose results are unused and that have no side effects\n",
		"\n test-options has options\n mode=a|b the mode (default: a)\n level=<int> the level (default: 1)\n",
	}
	for _, info := range passes.All() {
		want = append(want, "\n "+info.Name+" "+info.Summary+"\n")
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("--list-passes lacks %q:\n%s", w, r.stdout)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"dup.otir", "--help"}, {"--cse", "dup.otir", "-help"}} {
		flag := strings.Join(args, " ")
		r := runOpt(t, "", "", args...)
		if r.code != 0 || r.stderr != "" {
			t.Errorf("%s: code %d stderr %s", flag, r.code, r.stderr)
		}
		for _, want := range []string{
			"USAGE: otir-opt [options] [input file]",
			"  --pass-pipeline=PIPELINE  run PIPELINE, e.g. 'builtin.module(cse,dce)' (alias -p)\n",
			"  --split-input-file[=MARKER]   split the input at lines that start with MARKER",
			"  --verify-diagnostics[=LEVEL]  ",
			"  --timing                  print an execution time report to stderr (alias --mlir-timing)\n",
			"  -o FILE                       write the output to FILE ('-' for stdout)\n",
			"\n  --cse ",
			"\n      mode=a|b ",
		} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("%s: help lacks %q:\n%s", flag, want, r.stdout)
			}
		}
	}
}

func TestSplitInput(t *testing.T) {
	cases := []struct {
		src  string
		want []chunk
	}{
		{"a\n", []chunk{{"a\n", 0}}},
		{"", []chunk{{"", 0}}},
		{"a\n// -----\nb\nc\n  // ----- trailing text\nd", []chunk{{"a\n", 0}, {"b\nc\n", 2}, {"d", 5}}},
		{"// -----\n// -----\n", []chunk{{"", 0}, {"", 1}, {"", 2}}},
		{"a // -----\n", []chunk{{"a // -----\n", 0}}},
	}
	for _, c := range cases {
		got := splitInput(c.src, splitMarker)
		if len(got) != len(c.want) {
			t.Errorf("%q: got %v", c.src, got)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: chunk %d = %+v, want %+v", c.src, i, got[i], c.want[i])
			}
		}
	}
}

// TestNoPanicReachesUsers checks that crashes in the parser, the verifier,
// the printer or a pass become diagnostics: at the chunk, asking for a
// report, with exit status 3 (crash.ExitCode) for a panic.
func TestNoPanicReachesUsers(t *testing.T) {
	crashParse := func(string, string, int) (*ir.Module, error) { panic("parser bug") }
	broken := func(string, string, int) (*ir.Module, error) {
		m := ir.NewModule(ir.Location{})
		// An operand without a type makes the printer fail.
		m.Body().Append(ir.NewOp("otir.add", ir.Location{}, []*ir.Value{{}}, nil, nil))
		return m, nil
	}
	cases := []struct {
		name   string
		parse  func(string, string, int) (*ir.Module, error)
		verify func(*ir.Module) diag.List
		stderr string
	}{
		{"parser", crashParse, fakeVerify, "<stdin>:1:1: error: otir-opt crashed on this input: parser bug (an internal error: please report it)\nconst 1\n^\n"},
		{"verifier", fakeParse, func(*ir.Module) diag.List { panic("verifier bug") }, "<stdin>:1:1: error: otir-opt crashed on this input: verifier bug (an internal error: please report it)\nconst 1\n^\n"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main([]string{"otir-opt"}, Env{Stdin: strings.NewReader("const 1\n"), Stdout: &out, Stderr: &errb, Parse: c.parse, Verify: c.verify})
		if code != 3 || !strings.HasPrefix(errb.String(), c.stderr) {
			t.Errorf("%s: code %d stderr %q", c.name, code, errb.String())
		}
	}
	// Malformed IR (an operand without a type) prints, marked, rather than crashing.
	var out, errb bytes.Buffer
	code := Main([]string{"otir-opt"}, Env{Stdin: strings.NewReader("const 1\n"), Stdout: &out, Stderr: &errb, Parse: broken, Verify: func(*ir.Module) diag.List { return nil }})
	if code != 0 || !strings.Contains(out.String(), `"otir.add"(%<<UNKNOWN SSA VALUE>>) : (<<NULL TYPE>>) -> ()`) {
		t.Errorf("printer: code %d stdout %q stderr %q", code, out.String(), errb.String())
	}
}
