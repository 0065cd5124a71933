package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

func render(t *testing.T, p *alir.Program) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, p, "gen<1>.json"); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestReportGenerated(t *testing.T) {
	p := alir.RandomShiftAdd(alir.ShiftAddConfig{Inputs: 16, Ops: 400, Outputs: 8, Seed: 7})
	page := render(t, p)
	in, err := p.Info()
	if err != nil {
		t.Fatal(err)
	}
	// The figures: op counts by opcode, cost, sizes.
	for _, c := range in.OpCounts {
		row := fmt.Sprintf("<tr><td>%d</td><td class=\"l\">%s</td><td>%d</td></tr>", c.Opcode, c.Name, c.Count)
		if !strings.Contains(page, row) {
			t.Errorf("missing op count row %s", row)
		}
	}
	for _, want := range []string{
		fmt.Sprintf("<td>%s (sum of stored op costs)</td>", num(in.Cost)),
		fmt.Sprintf("<td>%d (widest %d bits)</td>", in.Ops, in.MaxWidth),
		fmt.Sprintf("<td>%d (the most adders on a path from an input to an output)</td>", in.AdderDepth),
		"<title>gen&lt;1&gt;.json: ALIR report</title>",
		"Result widths", "Stored latencies", "Depths", `<table id="critical">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("missing %q", want)
		}
	}
	// Self-contained: no URL, no script, no external asset.
	for _, bad := range []string{"http://", "https://", "<script", "<link", "src="} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	// Well-formed: the whole page parses as XML, with balanced tags, and
	// holds 4 inline SVG figures.
	d := xml.NewDecoder(strings.NewReader(page))
	d.Strict = true
	svgs := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the page is not well-formed: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "svg" {
			svgs++
		}
	}
	if svgs != 4 {
		t.Errorf("%d svg figures, want 4", svgs)
	}
}

func TestCriticalPath(t *testing.T) {
	p := alir.RandomShiftAdd(alir.ShiftAddConfig{Inputs: 8, Ops: 200, Outputs: 4, Seed: 3})
	a, err := Analyze(p)
	if err != nil {
		t.Fatal(err)
	}
	cp := a.Critical
	if len(cp) < 2 {
		t.Fatalf("critical path %v", cp)
	}
	if cp[0].Opcode != "input" {
		t.Errorf("the path starts at %s, want an input", cp[0].Opcode)
	}
	last := cp[len(cp)-1]
	if last.Latency != a.Info.LatencyMax {
		t.Errorf("the path ends at latency %v, want the largest %v", last.Latency, a.Info.LatencyMax)
	}
	isOut := false
	for _, o := range p.Outputs {
		isOut = isOut || int(o.Index) == last.Index
	}
	if !isOut {
		t.Errorf("the path ends at slot %d, not an output", last.Index)
	}
	for k := 1; k < len(cp); k++ {
		if !slices.Contains(p.Operands(cp[k].Index), int32(cp[k-1].Index)) {
			t.Errorf("step %d (slot %d) does not read slot %d", k, cp[k].Index, cp[k-1].Index)
		}
		if cp[k].Depth <= cp[k-1].Depth {
			t.Errorf("depth does not grow along the path at step %d", k)
		}
	}
	if a.Depth < last.Depth {
		t.Errorf("program depth %d < path depth %d", a.Depth, last.Depth)
	}
}

func TestHistograms(t *testing.T) {
	l, c := intHist([]int{3, 5, 5})
	if !slices.Equal(l, []string{"3", "4", "5"}) || !slices.Equal(c, []int{1, 0, 2}) {
		t.Errorf("intHist = %v %v", l, c)
	}
	l, c = intHist([]int{0, 100})
	if len(l) > 40 || c[0] != 1 || c[len(c)-1] != 1 {
		t.Errorf("intHist wide = %v %v", l, c)
	}
	vs := make([]float64, 100)
	for i := range vs {
		vs[i] = float64(i) / 3
	}
	l, c = floatHist(vs, 20)
	total := 0
	for _, n := range c {
		total += n
	}
	if len(l) != 20 || total != 100 {
		t.Errorf("floatHist = %v %v", l, c)
	}
}

// TestExtraRows: the caller's rows end the summary, escaped.
func TestExtraRows(t *testing.T) {
	p := alir.RandomShiftAdd(alir.ShiftAddConfig{Inputs: 4, Ops: 20, Outputs: 2, Seed: 1})
	var b strings.Builder
	if err := Write(&b, p, "x.json", Row{"area", "~12 LUTs <estimated>"}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	row := `<tr><th class="l">area</th><td>~12 LUTs &lt;estimated&gt;</td></tr>`
	i, end := strings.Index(page, row), strings.Index(page, "</table>")
	if i < 0 || i > end {
		t.Errorf("the summary does not end with %s", row)
	}
}
