// Package nncircuit measures the circuits nn-to-circuit makes of quantized
// networks against alkaid's (BENCHMARKS.md, "A quantized MLP as a circuit:
// otir against alkaid"): adders, constant adds, lookups and adder depth of
// an ALIR program, counted as issue 19 counts them.
package nncircuit

import (
	"fmt"
	"html"
	"io"
	"math"
	"strings"

	"github.com/otir-dev/otir/backend/alir"
	cmvmbench "github.com/otir-dev/otir/bench/cmvm"
)

// Figures are the counts of one ALIR program: Adders and ConstAdds as
// otir-run info counts them (alir.Counts, docs/alir.md#what-info-counts:
// an add or sub with a constant operand is a constant add, not an adder),
// Negs the negations among the adders (opcode -2), Lookups the lookups;
// Depth is the longest chain of adders from an input to an output
// (alir.Info.AdderDepth), DepthWithConstAdds the same counting constant
// adds too.
type Figures struct {
	Ops, Adders, Negs, ConstAdds, Lookups int
	Depth, DepthWithConstAdds             int
}

// Count counts a program's figures.
func Count(p *alir.Program) (Figures, error) {
	in, err := p.Info()
	if err != nil {
		return Figures{}, err
	}
	kinds, err := p.Kinds()
	if err != nil {
		return Figures{}, err
	}
	f := Figures{Ops: len(p.Ops), Adders: in.Counts.Adders, Negs: cmvmbench.Count(p).Negs,
		ConstAdds: in.Counts.ConstAdds, Lookups: in.Counts.Lookups}
	f.Depth = in.AdderDepth
	f.DepthWithConstAdds = cmvmbench.OutputDepth(p, cmvmbench.Depths(p, func(i int) bool {
		return kinds[i] == alir.KindAdder || kinds[i] == alir.KindConstAdd
	}))
	return f, nil
}

// Row is the figures as a row of BENCHMARKS.md's table.
func (f Figures) Row(name string) string {
	return fmt.Sprintf("| %s | %d | %d | %d | %d (%d counting constant adds) | %d |", name, f.Adders, f.ConstAdds, f.Lookups, f.Depth, f.DepthWithConstAdds, f.Ops)
}

// Profile counts the adders of a program at each adder depth: Profile[d]
// is the number of adders whose longest chain of adders from an input,
// themselves included, is d+1.
func Profile(p *alir.Program) ([]int, error) {
	kinds, err := p.Kinds()
	if err != nil {
		return nil, err
	}
	adder := func(i int) bool { return kinds[i] == alir.KindAdder }
	var prof []int
	for i, d := range cmvmbench.Depths(p, adder) {
		if !adder(i) {
			continue
		}
		for len(prof) < d {
			prof = append(prof, 0)
		}
		prof[d-1]++
	}
	return prof, nil
}

// Series is one program's profile in a chart.
type Series struct {
	Name    string
	Color   string
	Profile []int
}

// WriteSVG draws the profiles as grouped bars: adders (vertical) at each
// adder depth (horizontal), one color per program.
func WriteSVG(w io.Writer, title string, series []Series) error {
	const barW, plotH, top, bottom, left, right = 6, 220, 40, 50, 50, 20
	levels, most := 0, 1
	for _, s := range series {
		levels = max(levels, len(s.Profile))
		for _, c := range s.Profile {
			most = max(most, c)
		}
	}
	group := len(series)*barW + 4
	width := left + levels*group + right
	height := top + plotH + bottom
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height, width, height)
	fmt.Fprintf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"16\" font-weight=\"bold\">%s</text>\n", left, html.EscapeString(title))
	for k, s := range series {
		x := left + 260*k
		fmt.Fprintf(&b, "<rect x=\"%d\" y=\"24\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"33\">%s</text>\n", x, s.Color, x+14, html.EscapeString(s.Name))
	}
	fmt.Fprintf(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", left-2, top+plotH, width-right, top+plotH)
	fmt.Fprintf(&b, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#444\"/>\n", left-2, top, left-2, top+plotH)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%d</text>\n", left-6, top+8, most)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">0</text>\n", left-6, top+plotH)
	for d := range levels {
		x0 := left + d*group
		for k, s := range series {
			if d >= len(s.Profile) {
				continue
			}
			h := int(math.Round(float64(s.Profile[d]) / float64(most) * plotH))
			fmt.Fprintf(&b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"><title>%s, depth %d: %d adders</title></rect>\n",
				x0+k*barW, top+plotH-h, barW, h, s.Color, html.EscapeString(s.Name), d+1, s.Profile[d])
		}
		if (d+1)%5 == 0 || d == 0 {
			fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x0+group/2, top+plotH+14, d+1)
		}
	}
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">adder depth (adders per level)</text>\n", width/2, height-10)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
