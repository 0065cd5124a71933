package nncircuit

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Point is one circuit of a network: how it was made (Tool, Option), its
// adders, adder depth and, when measured, its LUTs by yosys (0: not
// measured).
type Point struct {
	Network, Tool, Option string
	Adders, Depth, LUTs   int
}

// ReadPoints reads a tab-separated table with the header
// network, tool, option, adders, depth, luts (luts may be empty or "-").
func ReadPoints(r io.Reader) ([]Point, error) {
	sc := bufio.NewScanner(r)
	var pts []Point
	line := 0
	for sc.Scan() {
		line++
		f := strings.Split(sc.Text(), "\t")
		if line == 1 {
			if strings.Join(f, ",") != "network,tool,option,adders,depth,luts" {
				return nil, fmt.Errorf("line 1: header %q, want network tool option adders depth luts", sc.Text())
			}
			continue
		}
		if len(f) != 6 {
			return nil, fmt.Errorf("line %d: %d fields, want 6", line, len(f))
		}
		p := Point{Network: f[0], Tool: f[1], Option: f[2]}
		for k, dst := range []*int{&p.Adders, &p.Depth, &p.LUTs} {
			s := f[3+k]
			if k == 2 && (s == "" || s == "-") {
				continue
			}
			n, err := strconv.Atoi(s)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", line, err)
			}
			*dst = n
		}
		pts = append(pts, p)
	}
	return pts, sc.Err()
}

// Front returns the points no other point beats: none has both fewer or
// equal adders and less or equal depth, with one of them strictly less.
// They come sorted by depth.
func Front(pts []Point) []Point {
	var f []Point
	for _, p := range pts {
		beaten := slices.ContainsFunc(pts, func(q Point) bool {
			return q.Adders <= p.Adders && q.Depth <= p.Depth && (q.Adders < p.Adders || q.Depth < p.Depth)
		})
		if !beaten {
			f = append(f, p)
		}
	}
	slices.SortFunc(f, func(a, b Point) int { return a.Depth - b.Depth })
	return f
}

// WriteParetoSVG draws one network's circuits: adders (vertical) against
// adder depth (horizontal), otir's points joined along its front, every
// other tool's points as diamonds; each point's tooltip says how it was
// made and its LUTs when measured.
func WriteParetoSVG(w io.Writer, title string, pts []Point) error {
	const plotW, plotH, top, bottom, left, right = 420, 240, 44, 46, 60, 150
	if len(pts) == 0 {
		return fmt.Errorf("no points")
	}
	loA, hiA, hiD := math.MaxInt, 0, 0
	for _, p := range pts {
		loA, hiA, hiD = min(loA, p.Adders), max(hiA, p.Adders), max(hiD, p.Depth)
	}
	pad := max((hiA-loA)/10, 10)
	loA, hiA = loA-pad, hiA+pad
	x := func(d int) float64 { return left + float64(d)/float64(hiD+2)*plotW }
	y := func(a int) float64 { return top + plotH - float64(a-loA)/float64(hiA-loA)*plotH }
	width, height := left+plotW+right, top+plotH+bottom
	var b strings.Builder
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n", width, height, width, height)
	fmt.Fprintf(&b, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"16\" font-weight=\"bold\">%s</text>\n", left, html.EscapeString(title))
	fmt.Fprintf(&b, "<path d=\"M%d %d V%d H%d\" fill=\"none\" stroke=\"#444\"/>\n", left, top, top+plotH, left+plotW)
	for _, a := range []int{loA + pad, hiA - pad} {
		fmt.Fprintf(&b, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%d</text>\n", left-4, y(a)+4, a)
	}
	for d := 0; d <= hiD; d += 10 {
		fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x(d), top+plotH+14, d)
	}
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">adder depth</text>\n", left+plotW/2, height-12)
	fmt.Fprintf(&b, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">adders</text>\n", top+plotH/2, top+plotH/2)
	tip := func(p Point) string {
		s := fmt.Sprintf("%s %s: %d adders, depth %d", p.Tool, p.Option, p.Adders, p.Depth)
		if p.LUTs > 0 {
			s += fmt.Sprintf(", %d LUTs", p.LUTs)
		}
		return html.EscapeString(s)
	}
	var otir []Point
	for _, p := range pts {
		if p.Tool == "otir" {
			otir = append(otir, p)
		}
	}
	if f := Front(otir); len(f) > 1 {
		b.WriteString("<polyline fill=\"none\" stroke=\"#1f77b4\" points=\"")
		for _, p := range f {
			fmt.Fprintf(&b, "%.1f,%.1f ", x(p.Depth), y(p.Adders))
		}
		b.WriteString("\"/>\n")
	}
	for _, p := range pts {
		cx, cy := x(p.Depth), y(p.Adders)
		if p.Tool == "otir" {
			fmt.Fprintf(&b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"#1f77b4\"><title>%s</title></circle>\n", cx, cy, tip(p))
		} else {
			fmt.Fprintf(&b, "<path d=\"M%.1f %.1f l6 6 l-6 6 l-6 -6 z\" fill=\"#d62728\"><title>%s</title></path>\n", cx, cy-6, tip(p))
			fmt.Fprintf(&b, "<text x=\"%.1f\" y=\"%.1f\" fill=\"#d62728\">%s</text>\n", cx+8, cy+4, html.EscapeString(p.Tool))
		}
	}
	lx := left + plotW + 12
	fmt.Fprintf(&b, "<circle cx=\"%d\" cy=\"%d\" r=\"4\" fill=\"#1f77b4\"/><text x=\"%d\" y=\"%d\">otir nn-to-circuit</text>\n", lx, top+4, lx+8, top+8)
	fmt.Fprintf(&b, "<text x=\"%d\" y=\"%d\">(line: its front)</text>\n", lx+8, top+22)
	fmt.Fprintf(&b, "<path d=\"M%d %d l6 6 l-6 6 l-6 -6 z\" fill=\"#d62728\"/><text x=\"%d\" y=\"%d\">another tool</text>\n", lx, top+32, lx+8, top+42)
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}
