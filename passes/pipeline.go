package passes

import (
	"fmt"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// PassSpec is one pass of a pipeline, with a value for every option.
type PassSpec struct {
	Info *Info
	// Options are the pass's options struct and its declared options,
	// set from the pipeline's text.
	Options *OptionValues
	// Anchor is the nested pipeline the pass was written in ("" for the
	// top level, or "otir.kernel", "any"): it only shapes how the pipeline
	// prints, since every OTIR pass runs on the whole module and handles
	// each kernel on its own.
	Anchor string
}

// String prints the spec fully specified, as MLIR's --dump-pass-pipeline:
// `promote-types{style=hls}`, options sorted by name.
func (s PassSpec) String() string {
	if len(s.Options.List()) == 0 {
		return s.Info.Name
	}
	var parts []string
	for _, o := range sortedOptions(s.Options) {
		parts = append(parts, o.Name+"="+quoteValue(o.Value()))
	}
	return s.Info.Name + "{" + strings.Join(parts, " ") + "}"
}

// Pipeline is an ordered list of passes run on the whole module.
type Pipeline []PassSpec

// AnchorOp is the operation a pipeline is anchored on. OTIR pipelines run
// flat: every pass runs on the whole module.
const AnchorOp = "builtin.module"

// NestedAnchors are the operations a pipeline may nest passes under, inside
// builtin.module(...): the registered symbols of a module body (the records
// with the Symbol trait: `otir.kernel(cse)`) and MLIR's `any(cse)`. Every
// OTIR pass works kernel by kernel, so a nested pass runs as the same pass
// on the module; the nesting is kept for printing.
func NestedAnchors() []string {
	var as []string
	for _, name := range ir.OpNames() {
		if ir.LookupOp(name).Has(ir.Symbol) {
			as = append(as, name)
		}
	}
	return append(as, "any")
}

func isNestedAnchor(name string) bool {
	for _, a := range NestedAnchors() {
		if a == name {
			return true
		}
	}
	return false
}

// String prints the pipeline in MLIR's textual syntax:
// `builtin.module(cse,otir.kernel(promote-types{style=hls}))`; consecutive
// passes of one nested anchor share its parentheses.
func (p Pipeline) String() string {
	var parts []string
	for i := 0; i < len(p); {
		if p[i].Anchor == "" {
			parts = append(parts, p[i].String())
			i++
			continue
		}
		j, inner := i, []string{}
		for ; j < len(p) && p[j].Anchor == p[i].Anchor; j++ {
			inner = append(inner, p[j].String())
		}
		parts = append(parts, p[i].Anchor+"("+strings.Join(inner, ",")+")")
		i = j
	}
	return AnchorOp + "(" + strings.Join(parts, ",") + ")"
}

// PipelineError is an error in a textual pipeline or a pass's option list.
// Offset is the byte position of the offending text in Text (when Text is set).
type PipelineError struct {
	Text   string
	Offset int
	Msg    string
}

func (e *PipelineError) Error() string { return e.Msg }

// Context returns the pipeline text and a caret line under the offending
// position, or "" when there is no text.
func (e *PipelineError) Context() string {
	if e.Text == "" {
		return ""
	}
	off := min(max(e.Offset, 0), len(e.Text))
	return e.Text + "\n" + strings.Repeat(" ", off) + "^"
}

// ParsePipeline reads MLIR's textual pipeline syntax,
// `builtin.module(p1{opt=v}, p2)`, and checks every pass and option against
// the registry. The builtin.module(...) wrapper is required, as in mlir-opt;
// nested pipelines such as otir.kernel(...) are not supported since every
// pass runs on the whole module. Errors are *PipelineError.
func ParsePipeline(text string) (Pipeline, error) {
	p := &pipeParser{s: text}
	pl, err := p.parse()
	if err != nil {
		if pe, ok := err.(*PipelineError); ok {
			pe.Text = text
		}
		return nil, err
	}
	return pl, nil
}

type pipeParser struct {
	s   string
	pos int
}

func (p *pipeParser) errf(off int, format string, args ...any) error {
	return &PipelineError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *pipeParser) ws() {
	for p.pos < len(p.s) && isSpace(p.s[p.pos]) {
		p.pos++
	}
}

func (p *pipeParser) peek() byte {
	if p.pos < len(p.s) {
		return p.s[p.pos]
	}
	return 0
}

func (p *pipeParser) name() string {
	start := p.pos
	for p.pos < len(p.s) && isNameChar(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func (p *pipeParser) parse() (Pipeline, error) {
	p.ws()
	start := p.pos
	anchor := p.name()
	p.ws()
	if anchor != AnchorOp || p.peek() != '(' {
		body := strings.TrimSpace(p.s)
		if anchor == "" || anchor == AnchorOp {
			return nil, p.errf(start, "expected the pass pipeline to be wrapped in '%s(...)'", AnchorOp)
		}
		return nil, p.errf(start, "expected the pass pipeline to be wrapped in '%s(...)', e.g. '%s(%s)'", AnchorOp, AnchorOp, body)
	}
	p.pos++
	pl, err := p.elements(AnchorOp, "")
	if err != nil {
		return nil, err
	}
	return Pipeline(pl), p.end()
}

// nested reads `anchor(p1,p2)` when the text at the cursor is a nested
// pipeline, giving its passes with their anchor set; ok is false (and the
// cursor unmoved) when it is not a nested pipeline.
func (p *pipeParser) nested() (specs []PassSpec, ok bool, err error) {
	start := p.pos
	name := p.name()
	p.ws()
	if name == "" || p.peek() != '(' {
		p.pos = start
		return nil, false, nil
	}
	if !isNestedAnchor(name) {
		if name == AnchorOp {
			return nil, false, p.errf(start, "'%s(...)' cannot be nested: an OTIR module holds no modules; nest passes under %s(...)", AnchorOp, strings.Join(NestedAnchors(), "(...) or "))
		}
		return nil, false, p.errf(start, "'%s(...)' cannot anchor a nested pass pipeline: OTIR nests passes only under %s(...)", name, strings.Join(NestedAnchors(), "(...) or "))
	}
	p.pos++
	specs, err = p.elements(name, name)
	return specs, err == nil, err
}

// elements reads the passes and nested pipelines of the list opened by
// `open(`, up to and including its ')'. anchor, if set, is given to the
// passes read directly in the list; a nested pipeline's passes keep the
// innermost anchor (otir.kernel(any(cse)): any names the ops).
func (p *pipeParser) elements(open, anchor string) ([]PassSpec, error) {
	specs := []PassSpec{}
	p.ws()
	if p.peek() == ')' {
		p.pos++
		return specs, nil
	}
	for {
		p.ws()
		if inner, isNested, err := p.nested(); err != nil {
			return nil, err
		} else if isNested {
			specs = append(specs, inner...)
		} else {
			spec, err := p.element()
			if err != nil {
				return nil, err
			}
			if anchor != "" {
				spec.Anchor = anchor
			}
			specs = append(specs, spec)
		}
		p.ws()
		switch p.peek() {
		case ',':
			p.pos++
			continue
		case ')':
			p.pos++
			return specs, nil
		case 0:
			return nil, p.errf(p.pos, "expected ',' or ')' to close '%s('", open)
		}
		return nil, p.errf(p.pos, "expected ',' or ')' after a pass, found '%c'", p.peek())
	}
}

// end checks that nothing but whitespace follows the pipeline.
func (p *pipeParser) end() error {
	p.ws()
	if p.pos != len(p.s) {
		return p.errf(p.pos, "unexpected text after the pass pipeline")
	}
	return nil
}

// element reads `name` or `name{options}`.
func (p *pipeParser) element() (PassSpec, error) {
	start := p.pos
	name := p.name()
	if name == "" {
		if p.peek() == 0 {
			return PassSpec{}, p.errf(p.pos, "expected a pass name")
		}
		return PassSpec{}, p.errf(p.pos, "expected a pass name, found '%c'", p.peek())
	}
	p.ws()
	if p.peek() == '(' {
		return PassSpec{}, p.errf(start, "'%s(...)' cannot anchor a nested pass pipeline: OTIR nests passes only under %s(...)", name, strings.Join(NestedAnchors(), "(...) or "))
	}
	var args []OptionArg
	if p.peek() == '{' {
		open := p.pos
		_, n, err := scanValue(p.s[p.pos:])
		if err != nil {
			pe := err.(*PipelineError)
			if pe.Offset == 0 {
				return PassSpec{}, p.errf(open, "unterminated '{' in the options of pass '%s'", name)
			}
			pe.Offset += open
			return PassSpec{}, pe
		}
		args, err = ParseOptions(p.s[open+1:open+n-1], open+1)
		if err != nil {
			return PassSpec{}, err
		}
		p.pos += n
	}
	spec, err := NewSpec(name, args)
	if err != nil {
		if pe, ok := err.(*PipelineError); ok && Lookup(name) == nil {
			pe.Offset = start
		}
		return PassSpec{}, err
	}
	return spec, nil
}
