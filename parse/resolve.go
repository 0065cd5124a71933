package parse

import (
	"sort"
	"strconv"
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/diag"
	"github.com/otir-dev/otir/ir"
)

// The resolver binds SSA names to values, walking the operations in text
// order the way mlir-opt's parser does:
//   - a use of a name not yet defined creates a forward reference, bound when
//     the name is defined later (the verifier then checks dominance);
//   - names defined in a region are forgotten when the region ends;
//   - each otir.kernel and builtin.module region starts an isolated scope;
//   - forward references never defined are reported, earliest first, as
//     `use of undeclared SSA value name` once the whole file is resolved.

// A value's key in the name table is its SSA name with its result number,
// "%0#1", where number 0 is the bare name: %x and %x#0 are both "%x". Keys
// are strings so that the table uses Go's fast string-keyed map paths, and
// for the common %x they are the token's own text.

// useKey normalises a use's name: "%x#0" -> "%x", "%x#01" -> "%x#1".
func useKey(name string) string {
	i := strings.IndexByte(name, '#')
	if i < 0 {
		return name
	}
	n, err := strconv.Atoi(name[i+1:])
	if err != nil {
		return name // out of range: never defined
	}
	return resultKey(name[:i], n)
}

// resultKey is the key of result number num of a result named name.
func resultKey(name string, num int) string {
	if num == 0 {
		return name
	}
	return name + "#" + strconv.Itoa(num)
}

// baseName is the name without its result number, for diagnostics.
func baseName(key string) string {
	if i := strings.IndexByte(key, '#'); i >= 0 {
		return key[:i]
	}
	return key
}

// forwardRef is a name used before its definition.
type forwardRef struct {
	typ   ir.Type
	first *Operation // first use: operand idx of first
	idx   int
	sites []site // operand slots waiting for the value
}

type site struct {
	op  *ir.Operation
	idx int
}

// isoScope is the name table of an isolated region, its names used before
// their definition, and where each open nested region's names start.
type isoScope struct {
	names *nameTable
	fwd   map[string]*forwardRef
	marks []int
}

type resolver struct {
	src        string // the parsed text, to locate operands in diagnostics
	scopes     []*isoScope
	undeclared []lexer.Position
	aliases    map[string]locAlias // location aliases, found on first use
}

func (r *resolver) top() *isoScope { return r.scopes[len(r.scopes)-1] }

func (r *resolver) pushIsolated(sizeHint int) {
	r.scopes = append(r.scopes, &isoScope{names: newNameTable(sizeHint)})
}

func (r *resolver) popIsolated() {
	for _, f := range r.top().fwd {
		r.undeclared = append(r.undeclared, r.usePos(f.first, f.idx))
	}
	r.scopes = r.scopes[:len(r.scopes)-1]
}

func (r *resolver) pushNested() {
	sc := r.top()
	sc.marks = append(sc.marks, len(sc.names.keys))
}

// popNested forgets the names defined in the nested region that ends.
func (r *resolver) popNested() {
	sc := r.top()
	sc.names.truncate(sc.marks[len(sc.marks)-1])
	sc.marks = sc.marks[:len(sc.marks)-1]
}

// finish reports the earliest undeclared name, if any.
func (r *resolver) finish() error {
	if len(r.undeclared) == 0 {
		return nil
	}
	sort.Slice(r.undeclared, func(i, j int) bool {
		a, b := r.undeclared[i], r.undeclared[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return errAt(r.undeclared[0], "use of undeclared SSA value name")
}

// define binds a name, written at at, to a value.
func (r *resolver) define(name string, num int, v *ir.Value, at ir.Location) error {
	sc := r.top()
	k := resultKey(name, num)
	if f, ok := sc.fwd[k]; ok {
		if f.typ != v.Type {
			return diag.Errorf(at, "definition of SSA value '%s#%d' has type '%s'", name, num, v.Type).
				Note(loc(r.usePos(f.first, f.idx)), "previously used here with type '%s'", f.typ)
		}
		for _, s := range f.sites {
			s.op.Operands[s.idx] = v
		}
		delete(sc.fwd, k)
	}
	if prev := sc.names.insert(k, v); prev != nil {
		return diag.Errorf(at, "redefinition of SSA value '%s'", name).
			Note(prev.Loc, "previously defined here")
	}
	return nil
}

// use binds operand i of o.
func (r *resolver) use(o *Operation, i int) error {
	sc := r.top()
	u := &o.uses[i]
	k := useKey(u.name)
	if v := sc.names.lookup(k); v != nil {
		if v.Type != u.typ {
			return r.mismatch(o, i, baseName(k), u.typ, v.Type, v.Loc)
		}
		o.op.Operands[i] = v
		return nil
	}
	if f, ok := sc.fwd[k]; ok {
		if f.typ != u.typ {
			return r.mismatch(o, i, baseName(k), u.typ, f.typ, loc(r.usePos(f.first, f.idx)))
		}
		f.sites = append(f.sites, site{o.op, i})
		return nil
	}
	if sc.fwd == nil {
		sc.fwd = map[string]*forwardRef{}
	}
	sc.fwd[k] = &forwardRef{typ: u.typ, first: o, idx: i, sites: []site{{o.op, i}}}
	return nil
}

func (r *resolver) mismatch(o *Operation, i int, name string, typ, prior ir.Type, priorLoc ir.Location) error {
	return diag.Errorf(loc(r.usePos(o, i)), "use of value '%s' expects different type than prior uses: '%s' vs '%s'", name, typ, prior).
		Note(priorLoc, "prior use here")
}

// usePos finds the token of operand i: the k-th use of its name among the
// operation's own tokens (before its first region), skipping definitions.
// The tokens are scanned again from the source (a streamed chunk's are gone).
func (r *resolver) usePos(o *Operation, i int) lexer.Position {
	name := o.uses[i].name
	k := 0
	for j := 0; j < i; j++ {
		if o.uses[j].name == name {
			k++
		}
	}
	start := int(o.text.start)
	s := &scanner{src: r.src[:o.text.end], pos: start, line: int(o.text.line),
		lineStart: start - int(o.text.col) + 1, piece: true}
	_ = s.scanPiece() // the text scanned once already
	toks := s.toks
	for j := 2 * len(o.Results); j < len(toks); j++ {
		t := &toks[j]
		if t.Type == tokPunct && t.Value == "{" {
			break
		}
		if t.Type != tokValue || t.Value != name {
			continue
		}
		if j+1 < len(toks) && toks[j+1].Type == tokPunct && toks[j+1].Value == "=" {
			continue // a definition: scf.for %i = ..., iter_args(%x = ...)
		}
		if k == 0 {
			return t.Pos
		}
		k--
	}
	return lexer.Position{Offset: start, Line: int(o.text.line), Column: int(o.text.col)}
}

// op resolves an operation: its operands, its regions, then its results.
func (r *resolver) op(o *Operation) error {
	if o.text.end > 0 {
		l, ok, err := r.trailingLoc(o)
		if err != nil {
			return err
		}
		if ok {
			o.op.Loc = l
		}
	}
	if !o.late {
		if err := r.uses(o); err != nil {
			return err
		}
	}
	isolated := false
	if len(o.regions) > 0 {
		d := ir.LookupOp(o.op.Name)
		isolated = d != nil && d.Has(ir.IsolatedFromAbove)
	}
	for _, reg := range o.regions {
		if err := r.region(o, reg, isolated); err != nil {
			return err
		}
	}
	if o.late {
		if err := r.uses(o); err != nil {
			return err
		}
	}
	if reg := o.prettyMod; reg != nil {
		// The module's text ends at its region's '}'.
		end := reg.Pos.Offset + 1
		if reg.Body != nil && len(reg.Body.Ops) > 0 {
			end = int(reg.Body.Ops[len(reg.Body.Ops)-1].text.end)
		}
		p := skipBlank(r.src, end)
		if strings.HasPrefix(r.src[p:], "loc(") { // the last operation's
			if e, ok := skipLoc(r.src, p); ok {
				p = skipBlank(r.src, e)
			}
		}
		if p < len(r.src) && r.src[p] == '}' && end > 0 {
			o.text.end = int32(p + 1)
			l, ok, err := r.trailingLoc(o)
			if err != nil {
				return err
			}
			if ok {
				o.op.Loc = l
			}
		}
	}
	if len(o.Results) == 0 {
		return nil
	}
	k := 0
	for _, name := range o.Results {
		count := 1
		if j := strings.IndexByte(name, ':'); j >= 0 {
			count, _ = strconv.Atoi(name[j+1:])
			name = name[:j]
		}
		for c := 0; c < count; c++ {
			if err := r.define(name, c, o.op.Results[k], o.op.Results[k].Loc); err != nil {
				return err
			}
			k++
		}
	}
	return nil
}

func (r *resolver) uses(o *Operation) error {
	for i := range o.uses {
		if err := r.use(o, i); err != nil {
			return err
		}
	}
	return nil
}

// region resolves a region of o: its block arguments, then its operations.
// An argument's loc(...) becomes its location once the region is resolved
// (until then, diagnostics of the parser about it point at its name, as
// mlir-opt's do).
func (r *resolver) region(o *Operation, reg *Region, isolated bool) error {
	var list []*Operation
	if reg.Body != nil {
		list = reg.Body.Ops
	}
	if isolated {
		r.pushIsolated(len(list) + len(reg.argNames))
		defer r.popIsolated()
	} else {
		r.pushNested()
		defer r.popNested()
	}
	var argLocs []ir.Location // the args' written locations, if any
	if reg.block != nil {
		for i, a := range reg.block.Args {
			if strings.IndexByte(reg.argNames[i], '#') >= 0 {
				return errAt(reg.argPos[i], "invalid block argument name '%s'", reg.argNames[i])
			}
			if i < len(reg.argEnd) && reg.argEnd[i] >= 0 {
				l, ok, err := r.locAfter(o, reg.argEnd[i])
				if err != nil {
					return err
				}
				if ok {
					if argLocs == nil {
						argLocs = make([]ir.Location, len(reg.block.Args))
					}
					argLocs[i] = l
				}
			}
			if err := r.define(reg.argNames[i], 0, a, loc(reg.argPos[i])); err != nil {
				return err
			}
		}
	}
	for _, o := range list {
		if err := r.op(o); err != nil {
			return err
		}
	}
	for i, l := range argLocs {
		if l != (ir.Location{}) {
			reg.block.Args[i].Loc = l
		}
	}
	return nil
}
