package rtl

import (
	"bufio"
	"fmt"
	"io"
	"math/big"

	"github.com/otir-dev/otir/backend/alir"
)

// Vectors are test vectors for a self-checking testbench: for each row,
// model_inp and the model_out the interpreter's exact semantics give.
type Vectors struct {
	In, Out []*big.Int
}

// Vectors encodes rows of input values (row-major, NumInputs values a row,
// as EncodeInputs reads them) and computes each row's expected model_out
// by the interpreter's exact semantics (alir.RunExactRaw) for program p,
// the program d was built from. A row the interpreter refuses (a lookup
// outside its table) is an error naming the row.
func (d *Design) Vectors(p *alir.Program, in []float64) (*Vectors, error) {
	nIn := len(d.Inputs)
	if nIn == 0 {
		return nil, fmt.Errorf("rtl: the design has no inputs")
	}
	n := len(in) / nIn
	in = in[:n*nIn]
	raw, err := alir.RunExactRaw(p, in, n)
	if err != nil {
		return nil, err
	}
	v := &Vectors{In: make([]*big.Int, n), Out: make([]*big.Int, n)}
	for r := range n {
		v.In[r] = d.encodeRow(p.InShifts, in[r*nIn:(r+1)*nIn])
		z := new(big.Int)
		for j, l := range d.Outputs {
			m := new(big.Int).Lsh(big.NewInt(1), uint(l.Width))
			x := new(big.Int).Mod(raw[r][j], m)
			z.Or(z, x.Lsh(x, uint(l.Offset)))
		}
		v.Out[r] = z
	}
	return v, nil
}

// verdictHeader is the first lines of both languages' self-checking
// testbenches (after the comment marker c).
func (d *Design) verdictHeader(bw *bufio.Writer, c string, n int) {
	fmt.Fprintf(bw, "%s Self-checking testbench of design %s (otir backend/rtl): %d rows of model_inp and\n", c, d.Name, n)
	fmt.Fprintf(bw, "%s the interpreter's model_out for each are embedded; prints PASS n/n, or the first\n", c)
	fmt.Fprintf(bw, "%s mismatching row and output lane (0-based) with both values, and then fails\n", c)
	fmt.Fprintf(bw, "%s (a non-zero exit status).\n%s latency: %d\n", c, c, d.Latency)
}

// WriteVerilogChecker writes a self-checking testbench module <name>_tb
// with the vectors embedded: it drives the rows into the design (one a
// clock cycle if pipelined), compares every output lane of every row with
// the expected one and prints "PASS n/n", or the first mismatch as
// "FAIL row R lane J: expected X, got Y (raw ...)", X and Y the lane's
// fixed-point values, and stops with $fatal (vvp and Verilator's binary
// exit non-zero).
func (d *Design) WriteVerilogChecker(w io.Writer, v *Vectors) error {
	bw := bufio.NewWriter(w)
	wi, wo, n := max(d.InWidth, 1), max(d.OutWidth, 1), len(v.In)
	mw := 1 // the widest lane
	for _, l := range d.Outputs {
		mw = max(mw, l.Width)
	}
	d.verdictHeader(bw, "//", n)
	fmt.Fprintf(bw, "`timescale 1ns/1ps\n\nmodule %s_tb;\n", d.Name)
	fmt.Fprintf(bw, "    reg [%d:0] model_inp;\n    wire [%d:0] model_out;\n", wi-1, wo-1)
	fmt.Fprintf(bw, "    reg [%d:0] inp_rows [0:%d];\n    reg [%d:0] out_rows [0:%d];\n", wi-1, max(n, 1)-1, wo-1, max(n, 1)-1)
	fmt.Fprintf(bw, "    reg [%d:0] want;\n", wo-1)
	if d.Latency > 0 {
		fmt.Fprintf(bw, "    integer c;\n    reg clk;\n    %s dut (.clk(clk), .model_inp(model_inp), .model_out(model_out));\n", d.Name)
	} else {
		fmt.Fprintf(bw, "    integer r;\n    %s dut (.model_inp(model_inp), .model_out(model_out));\n", d.Name)
	}
	fmt.Fprintf(bw, `
    // lane_real: bits w-1..0 of b as a number with f fractional bits,
    // two's complement if s.
    function real lane_real;
        input [%d:0] b;
        input integer w, s, f;
        integer i;
        begin
            lane_real = (s != 0 && b[w-1]) ? -1.0 : 0.0;
            for (i = (s != 0) ? w - 2 : w - 1; i >= 0; i = i - 1)
                lane_real = lane_real * 2.0 + (b[i] ? 1.0 : 0.0);
            for (i = 0; i < f; i = i + 1)
                lane_real = lane_real / 2.0;
            for (i = 0; i > f; i = i - 1)
                lane_real = lane_real * 2.0;
        end
    endfunction

    // check compares model_out with the row's expected value, lane by lane.
    task check;
        input integer row;
        begin
            want = out_rows[row];
`, mw-1)
	for j, l := range d.Outputs {
		if l.Width == 0 {
			continue
		}
		sel := fmt.Sprintf("[%d:%d]", l.Offset+l.Width-1, l.Offset)
		pad := func(x string) string {
			if l.Width == mw {
				return x + sel
			}
			return fmt.Sprintf("{%d'b0, %s%s}", mw-l.Width, x, sel)
		}
		s := 0
		if l.Signed {
			s = 1
		}
		real := func(x string) string { return fmt.Sprintf("lane_real(%s, %d, %d, %d)", pad(x), l.Width, s, l.Frac) }
		fmt.Fprintf(bw, `            if (model_out%[1]s !== want%[1]s) begin
                $display("FAIL row %%0d lane %[2]d: expected %%.17g, got %%.17g (raw %%h, want %%h)", row, %[3]s, %[4]s, model_out%[1]s, want%[1]s);
                $fatal(1, "%[5]s_tb: row %%0d lane %[2]d differs", row);
            end
`, sel, j, real("want"), real("model_out"), d.Name)
	}
	fmt.Fprintf(bw, "        end\n    endtask\n\n    initial begin\n")
	for r := range n {
		fmt.Fprintf(bw, "        inp_rows[%d] = %d'h%s;\n        out_rows[%d] = %d'h%s;\n", r, wi, v.In[r].Text(16), r, wo, v.Out[r].Text(16))
	}
	fmt.Fprintf(bw, "        model_inp = 0;\n")
	if d.Latency == 0 {
		fmt.Fprintf(bw, `        for (r = 0; r < %d; r = r + 1) begin
            model_inp = inp_rows[r];
            #1 check(r);
        end
`, n)
	} else {
		fmt.Fprintf(bw, `        clk = 0;
        for (c = 0; c < %[1]d; c = c + 1) begin
            if (c < %[2]d) model_inp = inp_rows[c];
            else model_inp = 0;
            #1 clk = 1;
            #1 clk = 0;
            if (c + 1 >= %[3]d) check(c + 1 - %[3]d);
        end
`, n+d.Latency-1, n, d.Latency)
	}
	fmt.Fprintf(bw, "        $display(\"PASS %d/%d\");\n        $finish;\n    end\nendmodule\n", n, n)
	return bw.Flush()
}

// WriteVHDLChecker writes WriteVerilogChecker's testbench in VHDL-2008: a
// mismatch ends the simulation with an assertion of severity failure (GHDL
// exits non-zero).
func (d *Design) WriteVHDLChecker(w io.Writer, v *Vectors) error {
	bw := bufio.NewWriter(w)
	wi, wo, n := max(d.InWidth, 1), max(d.OutWidth, 1), len(v.In)
	d.verdictHeader(bw, "--", n)
	fmt.Fprintf(bw, `library ieee;
use ieee.std_logic_1164.all;
use std.textio.all;

entity %[1]s_tb is
end entity %[1]s_tb;

architecture sim of %[1]s_tb is
    type inp_rows_t is array (0 to %[4]d) of std_logic_vector(%[2]d downto 0);
    type out_rows_t is array (0 to %[4]d) of std_logic_vector(%[3]d downto 0);
`, d.Name, wi-1, wo-1, max(n, 1)-1)
	rows := func(name string, x []*big.Int, width int) {
		fmt.Fprintf(bw, "    constant %s : %s_t := (\n", name, name)
		for r, z := range x {
			fmt.Fprintf(bw, "        %d => %d%sx\"%s\",\n", r, width, "", z.Text(16))
		}
		fmt.Fprintf(bw, "        others => (others => '0'));\n")
	}
	rows("inp_rows", v.In, wi)
	rows("out_rows", v.Out, wo)
	fmt.Fprintf(bw, `    signal clk : std_logic := '0';
    signal model_inp : std_logic_vector(%[1]d downto 0) := (others => '0');
    signal model_out : std_logic_vector(%[2]d downto 0);

    -- lane_real: b as a number with f fractional bits, two's complement if s.
    function lane_real(b : std_logic_vector; s : boolean; f : integer) return real is
        variable x : real := 0.0;
    begin
        for i in b'range loop
            if i = b'left and s then
                if b(i) = '1' then
                    x := -1.0;
                end if;
            else
                x := x * 2.0;
                if b(i) = '1' then
                    x := x + 1.0;
                end if;
            end if;
        end loop;
        return x * 2.0 ** (-f);
    end function;
begin
`, wi-1, wo-1)
	if d.Latency > 0 {
		fmt.Fprintf(bw, "    dut : entity work.%s port map (clk => clk, model_inp => model_inp, model_out => model_out);\n", d.Name)
	} else {
		fmt.Fprintf(bw, "    dut : entity work.%s port map (model_inp => model_inp, model_out => model_out);\n", d.Name)
	}
	fmt.Fprintf(bw, `    process
        variable l : line;

        procedure fail(r, j : natural; want, got : std_logic_vector; s : boolean; f : integer) is
        begin
            write(l, string'("FAIL row " & integer'image(r) & " lane " & integer'image(j) & ": expected "
                & to_string(lane_real(want, s, f), "%%.17g") & ", got " & to_string(lane_real(got, s, f), "%%.17g")
                & " (raw " & to_hstring(got) & ", want " & to_hstring(want) & ")"));
            writeline(output, l);
            assert false report "%[1]s_tb: row " & integer'image(r) & " lane " & integer'image(j) & " differs" severity failure;
        end procedure;

        -- check compares model_out with row r's expected value, lane by lane.
        procedure check(r : natural) is
            variable want : std_logic_vector(%[2]d downto 0);
        begin
            want := out_rows(r);
`, d.Name, wo-1)
	for j, l := range d.Outputs {
		if l.Width == 0 {
			continue
		}
		sel := fmt.Sprintf("(%d downto %d)", l.Offset+l.Width-1, l.Offset)
		fmt.Fprintf(bw, `            if model_out%[1]s /= want%[1]s then
                fail(r, %[2]d, want%[1]s, model_out%[1]s, %[3]v, %[4]d);
            end if;
`, sel, j, l.Signed, l.Frac)
	}
	fmt.Fprintf(bw, "        end procedure;\n    begin\n")
	if d.Latency == 0 {
		fmt.Fprintf(bw, `        for r in 0 to %d loop
            model_inp <= inp_rows(r);
            wait for 1 ns;
            check(r);
        end loop;
`, n-1)
	} else {
		fmt.Fprintf(bw, `        for c in 0 to %[1]d loop
            if c < %[2]d then
                model_inp <= inp_rows(c);
            else
                model_inp <= (others => '0');
            end if;
            wait for 1 ns;
            clk <= '1';
            wait for 1 ns;
            clk <= '0';
            if c + 1 >= %[3]d then
                check(c + 1 - %[3]d);
            end if;
        end loop;
`, n+d.Latency-2, n, d.Latency)
	}
	fmt.Fprintf(bw, `        write(l, string'("PASS %d/%d"));
        writeline(output, l);
        wait;
    end process;
end architecture sim;
`, n, n)
	return bw.Flush()
}
