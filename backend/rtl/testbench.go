package rtl

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/big"
	"strings"
)

// WriteVerilogTestbench writes a testbench module <name>_tb for the
// design: it reads rows of model_inp in hexadecimal, one a line, from the
// file named by the plusarg +in=FILE (default inputs.hex), drives them
// into the design (one a clock cycle if pipelined) and prints model_out in
// hexadecimal, one line per row, in order. EncodeInputs writes such rows.
func (d *Design) WriteVerilogTestbench(w io.Writer) error {
	bw := bufio.NewWriter(w)
	wi, wo := max(d.InWidth, 1), max(d.OutWidth, 1)
	fmt.Fprintf(bw, "// Testbench of design %s (otir backend/rtl): rows of model_inp in hex from +in=FILE\n", d.Name)
	fmt.Fprintf(bw, "// (default inputs.hex); prints model_out in hex, one line per row.\n")
	fmt.Fprintf(bw, "// latency: %d\n`timescale 1ns/1ps\n\nmodule %s_tb;\n", d.Latency, d.Name)
	fmt.Fprintf(bw, "    reg [%d:0] model_inp;\n    reg [%d:0] row;\n    wire [%d:0] model_out;\n", wi-1, wi-1, wo-1)
	fmt.Fprintf(bw, "    reg [8*1024-1:0] fname;\n    reg done;\n    integer fd, r, n, cyc;\n")
	if d.Latency > 0 {
		fmt.Fprintf(bw, "    reg clk;\n    %s dut (.clk(clk), .model_inp(model_inp), .model_out(model_out));\n", d.Name)
	} else {
		fmt.Fprintf(bw, "    %s dut (.model_inp(model_inp), .model_out(model_out));\n", d.Name)
	}
	fmt.Fprintf(bw, `
    initial begin
        if (!$value$plusargs("in=%%s", fname)) fname = "inputs.hex";
        fd = $fopen(fname, "r");
        if (fd == 0) begin
            $display("%s_tb: cannot open %%0s", fname);
            $finish;
        end
        n = 0;
        cyc = 0;
        done = 0;
        model_inp = 0;
`, d.Name)
	if d.Latency == 0 {
		fmt.Fprintf(bw, `        while (!done) begin
            r = $fscanf(fd, "%%h\n", row);
            if (r == 1) begin
                model_inp = row;
                n = n + 1;
                #1 $display("%%h", model_out);
            end else begin
                done = 1;
            end
        end
`)
	} else {
		fmt.Fprintf(bw, `        clk = 0;
        while (!done || cyc < n + %d) begin
            if (!done) begin
                r = $fscanf(fd, "%%h\n", row);
                if (r == 1) begin
                    model_inp = row;
                    n = n + 1;
                end else begin
                    done = 1;
                    model_inp = 0;
                end
            end else begin
                model_inp = 0;
            end
            #1 clk = 1;
            #1 clk = 0;
            cyc = cyc + 1;
            if (cyc >= %d && cyc - %d < n) $display("%%h", model_out);
        end
`, d.Latency-1, d.Latency, d.Latency)
	}
	fmt.Fprintf(bw, "        $fclose(fd);\n        $finish;\n    end\nendmodule\n")
	return bw.Flush()
}

// EncodeInputs writes rows of input values (row-major, NumInputs values a
// row) as model_inp in hexadecimal, one row a line: lane j is input j
// scaled by 2^(shift_j+f), floored and wrapped to the lane (as the
// interpreter converts inputs; NaN and infinities give 0).
func (d *Design) EncodeInputs(w io.Writer, shifts []int32, in []float64) error {
	bw := bufio.NewWriter(w)
	nIn := len(d.Inputs)
	if nIn == 0 {
		return fmt.Errorf("rtl: the design has no inputs")
	}
	for r := 0; r+nIn <= len(in); r += nIn {
		h := d.encodeRow(shifts, in[r:r+nIn]).Text(16)
		if digits := (max(d.InWidth, 1) + 3) / 4; len(h) < digits {
			h = strings.Repeat("0", digits-len(h)) + h
		}
		fmt.Fprintln(bw, h)
	}
	return bw.Flush()
}

// encodeRow returns model_inp for one row of inputs.
func (d *Design) encodeRow(shifts []int32, row []float64) *big.Int {
	z := new(big.Int)
	for j, l := range d.Inputs {
		if l.Width == 0 {
			continue
		}
		x := math.Floor(row[j] * math.Ldexp(1, int(shifts[j])+l.Frac))
		v := new(big.Int)
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			new(big.Float).SetFloat64(x).Int(v)
		}
		m := new(big.Int).Lsh(big.NewInt(1), uint(l.Width))
		v.Mod(v, m)
		z.Or(z, v.Lsh(v, uint(l.Offset)))
	}
	return z
}

// DecodeOutputs reads one model_out row in hexadecimal and returns the raw
// value of every lane (sign-extended for a signed lane).
func (d *Design) DecodeOutputs(line string) ([]*big.Int, error) {
	line = strings.TrimSpace(line)
	z, ok := new(big.Int).SetString(line, 16)
	if !ok {
		return nil, fmt.Errorf("rtl: output row %q is not hexadecimal", line)
	}
	out := make([]*big.Int, len(d.Outputs))
	for j, l := range d.Outputs {
		v := new(big.Int).Rsh(z, uint(l.Offset))
		m := new(big.Int).Lsh(big.NewInt(1), uint(l.Width))
		v.Mod(v, m)
		if l.Signed && l.Width > 0 && v.Bit(l.Width-1) == 1 {
			v.Sub(v, m)
		}
		out[j] = v
	}
	return out, nil
}
