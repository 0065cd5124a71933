package frontdoor

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
	"github.com/otir-dev/otir/diag"
)

const (
	validKernel = "otir.kernel @k() {\n  otir.return\n}\n"
	// The load's result shape differs from its source's.
	invalidKernel = "otir.kernel @k(%a: !otir.tile<2xi8, #global>) {\n  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<4xi8, #private>\n  otir.return\n}\n"
	program       = `{"model":[[1,1],[0],[0],[0],[false],[[0,-1,-1,0,[-128.0,127.0,1.0],0.0,0.0]],-1,-1],"meta":"ALIRModel","spec_version":2}`
)

func write(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// rendered is what Render prints for err, or "" when err is no diagnostic.
func rendered(sm *diag.SourceMgr, err error) string {
	var b bytes.Buffer
	if !Render(&b, sm, err) {
		return ""
	}
	return b.String()
}

func TestReadIR(t *testing.T) {
	if _, _, err := ReadProgram(write(t, "p.json", program), alir.FormatAuto, Options{}); err != nil {
		t.Fatalf("the test's program does not read: %v", err)
	}
	cases := []struct {
		name, file, text, want string // want: "" for a module, else the rendered error with the file's directory left out
		max                    int64
	}{
		{"valid", "k.otir", validKernel, "", 0},
		{"verifier error", "k.otir", invalidKernel, "k.otir:2:3: error: 'otir.load' op result shape 4 does not match the source shape 2\n" +
			"  %v = otir.load %a : !otir.tile<2xi8, #global> -> !otir.tile<4xi8, #private>\n  ^\n", 0},
		{"parse error", "k.otir", "otir.kernel @k( {\n", "k.otir:1:17: error:", 0},
		{"a program, valid", "k.mlir", program, "k.mlir: error: this file is an ALIR or DAIS program, not OTIR text (a kernel or an nn graph)\n", 0},
		{"a program, invalid", "k.mlir", strings.Replace(program, `"spec_version":2`, `"spec_version":9`, 1), "k.mlir:1:", 0},
		{"too large", "k.otir", validKernel, "k.otir: error: input is larger than 10 bytes (--max-input-bytes raises it)\n", 10},
		{"at the bound", "k.otir", validKernel, "", int64(len(validKernel))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(t, c.file, c.text)
			sm := diag.NewSourceMgr()
			m, err := ReadIR(sm, path, Options{MaxBytes: c.max})
			got := strings.ReplaceAll(rendered(sm, err), filepath.Dir(path)+"/", "")
			switch {
			case c.want == "" && (err != nil || m == nil):
				t.Fatalf("got %v", err)
			case c.want != "" && (m != nil || !strings.HasPrefix(got, c.want)):
				t.Fatalf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
	sm := diag.NewSourceMgr()
	_, err := ReadIR(sm, filepath.Join(t.TempDir(), "missing.otir"), Options{})
	var d *diag.Diagnostic
	if !errors.As(err, &d) || !strings.Contains(d.Msg, "cannot open the file: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
}

func TestReadProgram(t *testing.T) {
	bad := write(t, "bad.json", strings.Replace(program, `[0,-1,-1,0,`, `[0,3,-1,0,`, 1))
	_, _, err := ReadProgram(bad, alir.FormatAuto, Options{})
	if got := rendered(nil, err); !strings.HasPrefix(got, bad+": error: op 0") {
		t.Errorf("invalid program: %q", got)
	}
	if _, _, err := ReadProgram(write(t, "p.json", program), alir.FormatAuto, Options{MaxBytes: 10}); err == nil ||
		!strings.HasSuffix(err.Error(), "input is larger than 10 bytes (--max-input-bytes raises it)") {
		t.Errorf("too large: %v", err)
	}
}

func TestRender(t *testing.T) {
	if Render(&bytes.Buffer{}, nil, errors.New("plain")) {
		t.Error("a plain error rendered as a diagnostic")
	}
}

func TestIsTextHead(t *testing.T) {
	cases := []struct {
		head            string
		complete, named bool
		want            bool
	}{
		{validKernel, true, false, true},
		{"", true, true, true},
		{"", true, false, false},
		{"  {\"model\": []}", true, true, false},
		{"\x1f\x8b\x08", true, true, false},
		{"abc\x00def", true, true, false},
		{"caf\xc3", false, false, true}, // cut inside a character
		{"caf\xc3", true, false, false}, // invalid UTF-8 at the end
	}
	for _, c := range cases {
		if got := IsTextHead([]byte(c.head), c.complete, c.named); got != c.want {
			t.Errorf("IsTextHead(%q, %v, %v) = %v, want %v", c.head, c.complete, c.named, got, c.want)
		}
	}
}

func TestVerifyError(t *testing.T) {
	sm := diag.NewSourceMgr()
	_, err := ReadIR(sm, write(t, "k.otir", invalidKernel), Options{})
	if !IsVerifyError(err) {
		t.Errorf("a verifier error: %v", err)
	}
	_, err = ReadIR(sm, write(t, "k.otir", "garbage\n"), Options{})
	if err == nil || IsVerifyError(err) {
		t.Errorf("a parse error: %v", err)
	}
}
