package rtl

import (
	"bufio"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"strings"
)

// Language is a hardware description language Write writes.
type Language uint8

const (
	Verilog Language = iota // Verilog-2001
	VHDL                    // VHDL-2008
)

func (l Language) String() string {
	if l == VHDL {
		return "vhdl"
	}
	return "verilog"
}

// LanguageOf returns the language of a file by its extension: .v (and
// .sv) Verilog, .vhd and .vhdl VHDL.
func LanguageOf(path string) (Language, bool) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".v", ".sv":
		return Verilog, true
	case ".vhd", ".vhdl":
		return VHDL, true
	}
	return 0, false
}

// Write writes the design in language l.
func (d *Design) Write(w io.Writer, l Language) error {
	if l == VHDL {
		return d.WriteVHDL(w)
	}
	return d.WriteVerilog(w)
}

func bin(c *big.Int, n int) string {
	s := c.Text(2)
	if len(s) < n {
		s = strings.Repeat("0", n-len(s)) + s
	}
	return `"` + s + `"`
}

func (d *Design) hPart(p part) string {
	if p.net < 0 {
		return bin(p.c, p.width())
	}
	n := d.nets[p.net].name
	if p.rep {
		return fmt.Sprintf("%s_rep(%s(%d), %d)", d.Name, n, p.lo, p.width())
	}
	return fmt.Sprintf("%s(%d downto %d)", n, p.hi, p.lo)
}

// hExpr is e as a std_logic_vector expression; qualified (for operands of
// conversions and operators).
func (d *Design) hExpr(e expr, qualified bool) string {
	ps := make([]string, len(e))
	for k, p := range e {
		ps[k] = d.hPart(p)
	}
	s := strings.Join(ps, " & ")
	if qualified || (len(e) == 1 && e[0].net < 0) {
		return "std_logic_vector'(" + s + ")"
	}
	return s
}

// WriteVHDL writes the design as a VHDL-2008 entity and architecture.
func (d *Design) WriteVHDL(w io.Writer) error {
	bw := bufio.NewWriter(w)
	d.header(bw, "--")
	fmt.Fprintf(bw, "\nlibrary ieee;\nuse ieee.std_logic_1164.all;\nuse ieee.numeric_std.all;\n\n")
	fmt.Fprintf(bw, "entity %s is\n    port (\n", d.Name)
	if d.Latency > 0 {
		fmt.Fprintf(bw, "        clk : in std_logic;\n")
	}
	fmt.Fprintf(bw, "        model_inp : in std_logic_vector(%d downto 0);\n", max(d.InWidth, 1)-1)
	fmt.Fprintf(bw, "        model_out : out std_logic_vector(%d downto 0)\n    );\nend entity %s;\n\n", max(d.OutWidth, 1)-1, d.Name)
	fmt.Fprintf(bw, "architecture rtl of %s is\n", d.Name)
	fmt.Fprintf(bw, "    function %s_rep(b : std_logic; n : positive) return std_logic_vector is\n", d.Name)
	fmt.Fprintf(bw, "        constant r : std_logic_vector(n - 1 downto 0) := (others => b);\n    begin\n        return r;\n    end function;\n")
	for _, t := range d.tables {
		fmt.Fprintf(bw, "    type %s_t is array (0 to %d) of std_logic_vector(%d downto 0);\n", t.name, 1<<t.index-1, t.width-1)
		fmt.Fprintf(bw, "    constant %s : %s_t := (\n", t.name, t.name)
		for k, v := range t.values {
			fmt.Fprintf(bw, "        %d => %s,\n", k, bin(v, t.width))
		}
		fmt.Fprintf(bw, "        others => (others => '0'));\n")
	}
	var regs []int
	for k, n := range d.nets {
		if n.kind == kPort {
			continue
		}
		fmt.Fprintf(bw, "    signal %s : std_logic_vector(%d downto 0);", n.name, n.width-1)
		if n.comment != "" {
			fmt.Fprintf(bw, " -- %s", n.comment)
		}
		fmt.Fprintln(bw)
		if n.kind == kReg {
			regs = append(regs, k)
		}
	}
	fmt.Fprintf(bw, "begin\n")
	for _, n := range d.nets {
		if n.kind == kPort || n.kind == kReg {
			continue
		}
		a := func() string { return d.hExpr(n.a, true) }
		b := func() string { return d.hExpr(n.b, true) }
		fmt.Fprintf(bw, "    %s <= ", n.name)
		switch n.kind {
		case kAssign:
			fmt.Fprintf(bw, "%s;\n", d.hExpr(n.a, false))
		case kAdd:
			fmt.Fprintf(bw, "std_logic_vector(unsigned(%s) + unsigned(%s));\n", a(), b())
		case kSub:
			fmt.Fprintf(bw, "std_logic_vector(unsigned(%s) - unsigned(%s));\n", a(), b())
		case kMul:
			fmt.Fprintf(bw, "std_logic_vector(resize(unsigned(%s) * unsigned(%s), %d));\n", a(), b(), n.width)
		case kAnd:
			fmt.Fprintf(bw, "%s and %s;\n", a(), b())
		case kOr:
			fmt.Fprintf(bw, "%s or %s;\n", a(), b())
		case kXor:
			fmt.Fprintf(bw, "%s xor %s;\n", a(), b())
		case kNot:
			fmt.Fprintf(bw, "not %s;\n", a())
		case kRedOr:
			fmt.Fprintf(bw, "(0 => (or %s));\n", a())
		case kRedAnd:
			fmt.Fprintf(bw, "(0 => (and %s));\n", a())
		case kMux:
			c := n.c[0]
			fmt.Fprintf(bw, "%s when %s(%d) = '1' else %s;\n", d.hExpr(n.a, false), d.nets[c.net].name, c.lo, d.hExpr(n.b, false))
		case kLookup:
			fmt.Fprintf(bw, "%s(to_integer(unsigned(%s)));\n", d.tables[n.table].name, a())
		}
	}
	if len(regs) > 0 {
		fmt.Fprintf(bw, "    process (clk)\n    begin\n        if rising_edge(clk) then\n")
		for _, k := range regs {
			fmt.Fprintf(bw, "            %s <= %s;\n", d.nets[k].name, d.hExpr(d.nets[k].a, false))
		}
		fmt.Fprintf(bw, "        end if;\n    end process;\n")
	}
	fmt.Fprintf(bw, "    model_out <= %s;\nend architecture rtl;\n", d.hExpr(d.outExpr(), false))
	return bw.Flush()
}

// WriteVHDLTestbench writes a VHDL-2008 testbench entity <name>_tb that
// reads rows of model_inp in hexadecimal from the file named by its
// generic infile (default "inputs.hex") and prints model_out in
// hexadecimal, one line per row, like WriteVerilogTestbench.
func (d *Design) WriteVHDLTestbench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	wi, wo := max(d.InWidth, 1), max(d.OutWidth, 1)
	pi, po := (wi+3)/4*4, (wo+3)/4*4
	fmt.Fprintf(bw, "-- Testbench of design %s (otir backend/rtl): rows of model_inp in hex from generic infile;\n", d.Name)
	fmt.Fprintf(bw, "-- prints model_out in hex, one line per row.\n-- latency: %d\n", d.Latency)
	fmt.Fprintf(bw, `library ieee;
use ieee.std_logic_1164.all;
use std.textio.all;

entity %[1]s_tb is
    generic (infile : string := "inputs.hex");
end entity %[1]s_tb;

architecture sim of %[1]s_tb is
    signal clk : std_logic := '0';
    signal model_inp : std_logic_vector(%[2]d downto 0) := (others => '0');
    signal model_out : std_logic_vector(%[3]d downto 0);
begin
`, d.Name, wi-1, wo-1)
	if d.Latency > 0 {
		fmt.Fprintf(bw, "    dut : entity work.%s port map (clk => clk, model_inp => model_inp, model_out => model_out);\n", d.Name)
	} else {
		fmt.Fprintf(bw, "    dut : entity work.%s port map (model_inp => model_inp, model_out => model_out);\n", d.Name)
	}
	fmt.Fprintf(bw, `    process
        file f : text open read_mode is infile;
        variable l, o : line;
        variable row : std_logic_vector(%[1]d downto 0);
        variable outv : std_logic_vector(%[2]d downto 0);
        variable n, cyc : natural := 0;
        variable done : boolean := false;
    begin
        outv := (others => '0');
`, pi-1, po-1)
	if d.Latency == 0 {
		fmt.Fprintf(bw, `        while not endfile(f) loop
            readline(f, l);
            hread(l, row);
            model_inp <= row(%[1]d downto 0);
            wait for 1 ns;
            outv(%[2]d downto 0) := model_out;
            hwrite(o, outv);
            writeline(output, o);
        end loop;
`, wi-1, wo-1)
	} else {
		fmt.Fprintf(bw, `        while not done or cyc < n + %[3]d loop
            if not done and not endfile(f) then
                readline(f, l);
                hread(l, row);
                model_inp <= row(%[1]d downto 0);
                n := n + 1;
            else
                done := true;
                model_inp <= (others => '0');
            end if;
            wait for 1 ns;
            clk <= '1';
            wait for 1 ns;
            clk <= '0';
            cyc := cyc + 1;
            if cyc >= %[4]d and cyc - %[4]d < n then
                outv(%[2]d downto 0) := model_out;
                hwrite(o, outv);
                writeline(output, o);
            end if;
        end loop;
`, wi-1, wo-1, d.Latency-1, d.Latency)
	}
	fmt.Fprintf(bw, "        wait;\n    end process;\nend architecture sim;\n")
	return bw.Flush()
}

// NameFromPath returns a design's name from a file's name: its base name
// up to the first dot (Build makes it a legal name, see DesignName).
func NameFromPath(path string) string {
	name := filepath.Base(path)
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	return name
}
