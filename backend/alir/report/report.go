// Package report renders an ALIR or DAIS program as one self-contained HTML
// page (no scripts, no network, no external assets): its cost and latency,
// depth, operation counts by opcode, histograms of the result widths, of the
// stored latencies and of the depths (inline SVG drawn here), and the
// critical path, from an input to the output with the largest latency.
//
// The page is well-formed XML (XHTML syntax in an HTML5 document), so it can
// be checked and processed with encoding/xml.
package report

import (
	"fmt"
	"html"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
)

// Step is one operation of the critical path.
type Step struct {
	Index   int     // slot of the operation
	Opcode  string  // its name in the program's dialect
	Width   int     // result width in bits
	Latency float64 // stored latency
	Cost    float64 // stored cost
	Depth   int     // operations on the longest path from an input, itself included
}

// Analysis is what the report shows, beside alir.Info.
type Analysis struct {
	Info   *alir.Info
	Widths []int // per operation
	Depths []int // per operation: 0 for inputs and constants
	Depth  int   // largest depth of an output
	// Critical is the critical path: from an input (or constant) to the
	// output operation with the largest stored latency (ties: the larger
	// depth), each step the operand with the largest latency (then depth).
	Critical []Step
}

// Analyze computes the report's figures for p, which must be valid.
func Analyze(p *alir.Program) (*Analysis, error) {
	in, err := p.Info()
	if err != nil {
		return nil, err
	}
	w, err := p.Widths()
	if err != nil {
		return nil, err
	}
	a := &Analysis{Info: in, Widths: w, Depths: make([]int, len(p.Ops))}
	for i := range p.Ops {
		d := 0
		ops := p.Operands(i)
		for _, j := range ops {
			d = max(d, a.Depths[j])
		}
		if len(ops) > 0 {
			d++
		}
		a.Depths[i] = d
	}
	better := func(i, j int) bool { // is slot i later than slot j?
		li, lj := p.Ops[i].Latency, p.Ops[j].Latency
		if li != lj {
			return li > lj
		}
		return a.Depths[i] > a.Depths[j]
	}
	end := -1
	for _, o := range p.Outputs {
		if o.Index < 0 {
			continue
		}
		i := int(o.Index)
		a.Depth = max(a.Depth, a.Depths[i])
		if end < 0 || better(i, end) {
			end = i
		}
	}
	var path []Step
	for i := end; i >= 0; {
		op := p.Ops[i]
		path = append(path, Step{i, p.Dialect.OpName(op.Opcode), w[i], op.Latency, op.Cost, a.Depths[i]})
		next := -1
		for _, j := range p.Operands(i) {
			if next < 0 || better(int(j), next) {
				next = int(j)
			}
		}
		i = next
	}
	for l, r := 0, len(path)-1; l < r; l, r = l+1, r-1 {
		path[l], path[r] = path[r], path[l]
	}
	a.Critical = path
	return a, nil
}

// Row is a summary line the caller adds to a report (such as the
// estimated area of the program's design, which this package cannot
// compute: backend/rtl is built on it).
type Row struct{ Key, Value string }

// Write renders the report of p, titled title (such as the file name),
// with the extra rows at the end of its summary.
func Write(w io.Writer, p *alir.Program, title string, extra ...Row) error {
	a, err := Analyze(p)
	if err != nil {
		return err
	}
	var b strings.Builder
	e := html.EscapeString
	in := a.Info
	fmt.Fprintf(&b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>%s: ALIR report</title>\n", e(title))
	b.WriteString("<style>\nbody { font-family: sans-serif; margin: 2em; color: #222; }\n" +
		"table { border-collapse: collapse; margin: 0.5em 0 1.5em 0; }\n" +
		"th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: right; }\n" +
		"th { background: #eee; }\ntd.l, th.l { text-align: left; }\n" +
		".fig { display: inline-block; margin: 0 1.5em 1.5em 0; vertical-align: top; }\n" +
		"svg text { font-family: sans-serif; font-size: 10px; }\n</style>\n</head>\n<body>\n")
	fmt.Fprintf(&b, "<h1>%s</h1>\n", e(title))
	dialect := in.Dialect
	if in.Spec > 0 {
		dialect += fmt.Sprintf(" (spec %d)", in.Spec)
	}
	b.WriteString("<h2>Summary</h2>\n<table id=\"summary\">\n")
	row := func(k, v string) { fmt.Fprintf(&b, "<tr><th class=\"l\">%s</th><td>%s</td></tr>\n", e(k), e(v)) }
	row("dialect", dialect)
	row("inputs", fmt.Sprintf("%d (%d bits)", in.Inputs, in.InputBits))
	row("outputs", fmt.Sprintf("%d (%d bits)", in.Outputs, in.OutputBits))
	row("operations", fmt.Sprintf("%d (widest %d bits)", in.Ops, in.MaxWidth))
	row("cost", num(in.Cost)+" (sum of stored op costs)")
	row("latency", num(in.LatencyMin)+" .. "+num(in.LatencyMax)+" (stored, over the outputs)")
	row("depth", fmt.Sprintf("%d (operations on the longest path from an input to an output)", a.Depth))
	es := in.Estimate
	row("cost model", fmt.Sprintf("carry_size %d, adder_size %d: %s, cost %s, latency %s",
		es.CarrySize, es.AdderSize, es.ChargedText(), num(es.Cost), num(es.Latency)))
	if in.Tables > 0 {
		row("tables", fmt.Sprintf("%d (%d entries)", in.Tables, in.TableEntries))
	}
	row("counts", in.Counts.String())
	row("adder depth", fmt.Sprintf("%d (the most adders on a path from an input to an output)", in.AdderDepth))
	for _, w := range in.Warnings() {
		row("warning", w)
	}
	if len(in.NonPortable) == 0 {
		row("portable", "yes")
	} else {
		row("portable", fmt.Sprintf("no: %d operations rely on a wrap-around", len(in.NonPortable)))
	}
	for _, r := range extra {
		row(r.Key, r.Value)
	}
	b.WriteString("</table>\n")

	b.WriteString("<h2>Operations by opcode</h2>\n<table id=\"opcounts\">\n<tr><th>opcode</th><th class=\"l\">name</th><th>count</th></tr>\n")
	for _, c := range in.OpCounts {
		fmt.Fprintf(&b, "<tr><td>%d</td><td class=\"l\">%s</td><td>%d</td></tr>\n", c.Opcode, e(c.Name), c.Count)
	}
	b.WriteString("</table>\n")
	counts := make([]int, len(in.OpCounts))
	names := make([]string, len(in.OpCounts))
	for k, c := range in.OpCounts {
		counts[k], names[k] = c.Count, c.Name
	}
	b.WriteString("<h2>Histograms</h2>\n")
	figure(&b, "Operations by opcode", "opcode", names, counts)
	wl, wc := intHist(a.Widths)
	figure(&b, "Result widths", "bits", wl, wc)
	lat := make([]float64, len(p.Ops))
	for i, op := range p.Ops {
		lat[i] = op.Latency
	}
	ll, lc := floatHist(lat, 20)
	figure(&b, "Stored latencies", "latency", ll, lc)
	dl, dc := intHist(a.Depths)
	figure(&b, "Depths", "depth", dl, dc)

	fmt.Fprintf(&b, "<h2>Critical path</h2>\n<p>%d operations, from an input to the output with the largest latency (%s).</p>\n",
		len(a.Critical), num(in.LatencyMax))
	b.WriteString("<table id=\"critical\">\n<tr><th>step</th><th>slot</th><th class=\"l\">opcode</th><th>bits</th><th>latency</th><th>cost</th><th>depth</th></tr>\n")
	for k, s := range a.Critical {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%d</td><td class=\"l\">%s</td><td>%d</td><td>%s</td><td>%s</td><td>%d</td></tr>\n",
			k, s.Index, e(s.Opcode), s.Width, num(s.Latency), num(s.Cost), s.Depth)
	}
	b.WriteString("</table>\n</body>\n</html>\n")
	_, err = io.WriteString(w, b.String())
	return err
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// intHist counts the values, one bar per value from the least to the
// largest (grouped into at most 40 bars).
func intHist(vs []int) ([]string, []int) {
	if len(vs) == 0 {
		return nil, nil
	}
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo, hi = min(lo, v), max(hi, v)
	}
	span := hi - lo + 1
	step := (span + 39) / 40
	n := (span + step - 1) / step
	labels, counts := make([]string, n), make([]int, n)
	for k := range labels {
		if step == 1 {
			labels[k] = strconv.Itoa(lo + k)
		} else {
			labels[k] = fmt.Sprintf("%d-%d", lo+k*step, lo+(k+1)*step-1)
		}
	}
	for _, v := range vs {
		counts[(v-lo)/step]++
	}
	return labels, counts
}

// floatHist counts the values in up to bins equal bins (one bar per value
// when there are few distinct values).
func floatHist(vs []float64, bins int) ([]string, []int) {
	if len(vs) == 0 {
		return nil, nil
	}
	distinct := map[float64]int{}
	for _, v := range vs {
		distinct[v]++
	}
	if len(distinct) <= bins {
		keys := make([]float64, 0, len(distinct))
		for v := range distinct {
			keys = append(keys, v)
		}
		sort.Float64s(keys)
		labels, counts := make([]string, len(keys)), make([]int, len(keys))
		for k, v := range keys {
			labels[k], counts[k] = num(v), distinct[v]
		}
		return labels, counts
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	width := (hi - lo) / float64(bins)
	labels, counts := make([]string, bins), make([]int, bins)
	for k := range labels {
		labels[k] = fmt.Sprintf("%.3g-%.3g", lo+float64(k)*width, lo+float64(k+1)*width)
	}
	for _, v := range vs {
		counts[min(bins-1, int((v-lo)/width))]++
	}
	return labels, counts
}

// figure draws a bar chart as inline SVG.
func figure(b *strings.Builder, title, axis string, labels []string, counts []int) {
	const barW, gap, plotH, top, bottom, left = 22, 4, 160, 24, 70, 40
	n := len(counts)
	width := left + n*(barW+gap) + 20
	height := top + plotH + bottom
	most := 1
	for _, c := range counts {
		most = max(most, c)
	}
	e := html.EscapeString
	fmt.Fprintf(b, "<div class=\"fig\">\n<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s\">\n", width, height, width, height, e(title))
	fmt.Fprintf(b, "<text x=\"%d\" y=\"14\" font-weight=\"bold\">%s</text>\n", left, e(title))
	fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", left-2, top+plotH, width-10, top+plotH)
	fmt.Fprintf(b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", left-2, top, left-2, top+plotH)
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", left-6, top+8, most)
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", left-6, top+plotH)
	for k, c := range counts {
		h := int(math.Round(float64(c) / float64(most) * plotH))
		x := left + k*(barW+gap)
		fmt.Fprintf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#4a7ebb\"><title>%s: %d</title></rect>\n",
			x, top+plotH-h, barW, h, e(labels[k]), c)
		lx, ly := x+barW/2, top+plotH+8
		fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" transform=\"rotate(-60 %d %d)\">%s</text>\n", lx, ly, lx, ly, e(labels[k]))
	}
	fmt.Fprintf(b, "<text x=\"%d\" y=\"%d\">%s</text>\n", width/2, height-4, e(axis))
	b.WriteString("</svg>\n</div>\n")
}
