package rtl

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/otir-dev/otir/backend/alir"
)

// identifierRE matches VHDL's basic identifiers of ASCII letters.
var identifierRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$`)

// checkDesignName fails unless name is a design name as DesignName
// promises: a VHDL basic identifier (so a Verilog identifier too) of at
// most MaxNameLength bytes, no keyword of either language or reserved name
// in any letter case, not ending in _tb.
func checkDesignName(t *testing.T, in, name string) {
	t.Helper()
	low := strings.ToLower(name)
	switch {
	case !identifierRE.MatchString(name):
		t.Errorf("DesignName(%.40q) = %q: not an identifier", in, name)
	case len(name) > MaxNameLength:
		t.Errorf("DesignName(%.40q) = %q: longer than %d bytes", in, name, MaxNameLength)
	case verilogKeywords[low] || vhdlReserved[low] || reservedNames[low]:
		t.Errorf("DesignName(%.40q) = %q: a keyword or reserved name", in, name)
	case strings.HasSuffix(low, "_tb"):
		t.Errorf("DesignName(%.40q) = %q: a testbench's name", in, name)
	}
}

func TestDesignName(t *testing.T) {
	long := strings.Repeat("a", 1_000_000)
	for _, c := range []struct {
		in, want string // want: the name, or its part before _x and the hash
		kept     bool
	}{
		{"vadd", "vadd", true},
		{"Foo_Bar1", "Foo_Bar1", true},
		{"x", "x", true},
		{"a_tbx", "a_tbx", true},
		{"a_x0123abc", "a_x0123abc", true}, // 7 digits: not a hash
		{strings.Repeat("b", MaxNameLength), strings.Repeat("b", MaxNameLength), true},
		{strings.Repeat("b", MaxNameLength+1), strings.Repeat("b", MaxNameLength-10), false},
		{long, strings.Repeat("a", MaxNameLength-10), false},
		{"", "d", false},
		{"9x", "d9x", false},
		{"_a", "a", false},
		{"a_", "a", false},
		{"a__b", "a_b", false},
		{"été", "t", false},
		{"ÉTÉ", "T", false},
		{"a b", "a_b", false},
		{`a\b`, "a_b", false},
		{"$x", "x", false},
		{"x$", "x", false},
		{"a.b", "a_b", false},
		{"a\nb", "a_b", false},
		{"*/", "d", false},
		{"--", "d", false},
		{"___", "d", false},
		{"123", "d123", false},
		{"wire", "wire", false},
		{"WIRE", "WIRE", false},
		{"Module", "Module", false},
		{"logic", "logic", false},
		{"reg", "reg", false},
		{"entity", "entity", false},
		{"ENTITY", "ENTITY", false},
		{"In", "In", false},
		{"signal", "signal", false},
		{"out", "out", false},
		{"is", "is", false},
		{"model_inp", "model_inp", false},
		{"Clk", "Clk", false},
		{"ieee", "ieee", false},
		{"std_logic_vector", "std_logic_vector", false},
		{"foo_tb", "foo_tb", false},
		{"foo_TB", "foo_TB", false},
		{"a_x0123abcd", "a_x0123abcd", false},
		{"a_X0123ABCD", "a_X0123ABCD", false},
	} {
		got := DesignName(c.in)
		checkDesignName(t, c.in, got)
		if c.kept {
			if got != c.want {
				t.Errorf("DesignName(%.40q) = %q, want it kept", c.in, got)
			}
			continue
		}
		i := strings.LastIndex(got, "_x")
		if i < 0 || got[:i] != c.want || len(got[i+2:]) != hashDigits || !isHex(got[i+2:]) {
			t.Errorf("DesignName(%.40q) = %q, want %s_x and %d hexadecimal digits", c.in, got, c.want, hashDigits)
		}
	}
	for _, words := range []map[string]bool{verilogKeywords, vhdlReserved, reservedNames} {
		for w := range words {
			for _, v := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:]} {
				if got := DesignName(v); !strings.HasPrefix(got, v+"_x") {
					t.Errorf("DesignName(%q) = %q, want it rewritten", v, got)
				}
			}
		}
	}
}

// TestDesignNameUnique: distinct names give distinct design names, in
// Verilog (letter case counts) and VHDL (it does not) alike, unless they
// differ only in case.
func TestDesignNameUnique(t *testing.T) {
	names := hostileNames()
	seen := map[string]string{}
	for _, n := range names {
		d := strings.ToLower(DesignName(n))
		if prev, ok := seen[d]; ok && !strings.EqualFold(prev, n) {
			t.Errorf("%.40q and %.40q both give %s", prev, n, d)
		}
		seen[d] = n
	}
}

// FuzzDesignName: every name gives a design name; distinct names (not
// differing only in letter case) give distinct ones, also ignoring case.
func FuzzDesignName(f *testing.F) {
	for _, n := range hostileNames() {
		if len(n) < 1000 {
			f.Add(n, "wire")
		}
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		da, db := DesignName(a), DesignName(b)
		checkDesignName(t, a, da)
		checkDesignName(t, b, db)
		if !strings.EqualFold(a, b) && strings.EqualFold(da, db) {
			t.Errorf("%q and %q both give %q, %q", a, b, da, db)
		}
		if a != b && da == db {
			t.Errorf("%q and %q both give %q", a, b, da)
		}
	})
}

// hostileNames are names a user may give a design: oddNames and every
// keyword and reserved name (keywordNames).
func hostileNames() []string { return append(oddNames(), keywordNames()...) }

// oddNames are names that are illegal in VHDL or Verilog, unicode, 1e6
// characters, the internal names' shapes and a few legal ones.
func oddNames() []string {
	return []string{
		"", " ", "9x", "0", "_", "_a", "a_", "a__b", "a___b", "été", "ÉTÉ", "日本", "a\u200bb",
		"a b", `a\b`, `\wire `, "$x", "x$", "a$b", "a.b", "a-b", "a/b", "a;b", "a\"b", "a'b",
		"a\nb", "a\x00b", "*/", "/*", "--", "//", "`define", "a\tb", "(a)",
		"foo_tb", "FOO_TB", "a_x0123abcd", "a_X0123ABCD", "x_v1", "x_r1_2", "x_rom0", "x_rep", "x_rom0_t",
		"model", "modelx", "d", "d_x", "vadd", "Foo_Bar1",
		strings.Repeat("a", MaxNameLength), strings.Repeat("c", MaxNameLength+1), strings.Repeat("z", 1_000_000),
		strings.Repeat("é", 1000), strings.Repeat("_", 1000), strings.Repeat("9", 100),
	}
}

// keywordNames are the keywords of both languages and the reserved names,
// each in lower and upper case.
func keywordNames() []string {
	var ns, words []string
	for _, m := range []map[string]bool{verilogKeywords, vhdlReserved, reservedNames} {
		for w := range m {
			words = append(words, w)
		}
	}
	sort.Strings(words)
	seen := map[string]bool{}
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			ns = append(ns, w, strings.ToUpper(w))
		}
	}
	return ns
}

// namedProgram returns a small random program whose pipelined design has
// every kind of name: op values, intermediate nets, a negated output,
// pipeline registers and a ROM.
func namedProgram(t *testing.T) *alir.Program {
	t.Helper()
	r := rand.New(rand.NewPCG(26, 5))
	for range 2000 {
		p := alir.RandomProgram(r, alir.DAIS, 2, 30, false)
		d, err := Build(p, Options{Name: "x", LatencyCutoff: 0.5})
		if err != nil || len(d.tables) == 0 {
			continue
		}
		kinds := map[string]bool{}
		for _, n := range d.nets {
			kinds[strings.TrimRight(strings.TrimPrefix(n.name, "x_")[:1], "0123456789")] = true
		}
		if kinds["v"] && kinds["t"] && kinds["o"] && kinds["r"] {
			return p
		}
	}
	t.Fatal("no random program has every kind of name")
	return nil
}

// TestNameFuzz writes one design (pipelined and combinational) under every
// odd name and every eighth keyword (every keyword with OTIR_RTL_FULL=1;
// each is only rewritten, as TestDesignName checks), in both languages with
// their testbenches (raw and self-checking), and checks that
// all of them together pass verilator --lint-only -Wall, iverilog and
// ghdl -a: every name is legal, and no two designs, nor a design and a
// testbench, share a name.
func TestNameFuzz(t *testing.T) {
	p := namedProgram(t)
	dir := t.TempDir()
	var designs, vlog, vhdl []string
	names := oddNames()
	kw := keywordNames()
	for k := 0; k < len(kw); k += 2 {
		if k%16 == 0 || os.Getenv("OTIR_RTL_FULL") != "" {
			names = append(names, kw[k], kw[k+1])
		}
	}
	for k, name := range names {
		d, err := Build(p, Options{Name: name, LatencyCutoff: float64(k%2) * 0.5})
		if err != nil {
			t.Fatalf("%.40q: %v", name, err)
		}
		vtb, htb := d.WriteVerilogTestbench, d.WriteVHDLTestbench
		if k%4 >= 2 { // every other pair: the self-checking testbenches
			v, err := d.Vectors(p, []float64{0.5, -1})
			if err != nil {
				t.Fatal(err)
			}
			vtb = func(w io.Writer) error { return d.WriteVerilogChecker(w, v) }
			htb = func(w io.Writer) error { return d.WriteVHDLChecker(w, v) }
		}
		for _, w := range []struct {
			ext   string
			write func(*bytes.Buffer) error
			to    *[]string
		}{
			{".v", func(b *bytes.Buffer) error { return d.WriteVerilog(b) }, &designs},
			{"_tb.v", func(b *bytes.Buffer) error { return vtb(b) }, &vlog},
			{".vhd", func(b *bytes.Buffer) error { return d.WriteVHDL(b) }, &vhdl},
			{"_tb.vhd", func(b *bytes.Buffer) error { return htb(b) }, &vhdl},
		} {
			var b bytes.Buffer
			if err := w.write(&b); err != nil {
				t.Fatal(err)
			}
			f := filepath.Join(dir, fmt.Sprintf("d%d%s", k, w.ext))
			if err := os.WriteFile(f, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			*w.to = append(*w.to, f)
		}
	}
	run := func(tool string, args ...string) {
		t.Helper()
		if _, ok := lookTool(tool); !ok {
			t.Logf("backend/rtl: %s not installed: not run", tool)
			return
		}
		cmd := exec.Command(tool, args...)
		cmd.Dir = dir
		start := time.Now()
		defer func() { t.Logf("%s: %v", tool, time.Since(start)) }()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%.4000s", tool, err, out)
		}
	}
	run("verilator", append([]string{"--lint-only", "-Wall", "-Wno-MULTITOP", "-Wno-DECLFILENAME"}, designs...)...)
	run("iverilog", append([]string{"-g2001", "-o", filepath.Join(dir, "all.vvp")}, append(designs, vlog...)...)...)
	run("ghdl", append([]string{"-a", "--std=08"}, vhdl...)...)
}
