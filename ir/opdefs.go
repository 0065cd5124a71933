package ir

import (
	"fmt"
	"maps"
	"sort"
	"strings"
	"sync/atomic"
	"unsafe"
)

// OpModule is builtin.module, the top-level operation (the dialects' own
// names are in their packages: dialect/otir, dialect/scf, lower/dais).
const OpModule = "builtin.module"

var opDefs = map[string]*OpDef{}

func init() {
	RegisterOp(OpDef{Name: OpModule, Summary: "top-level container of kernels",
		Regions: []string{"bodyRegion"}, Traits: IsolatedFromAbove | SingleBlock | NoTerminator,
		Format: "attr-dict-with-keyword $bodyRegion", Verify: verifyModule})
}

// verifyModule: the module's body has no arguments. (The otir dialect adds
// its rule on the otir.typing_style attribute.)
func verifyModule(op *Operation, _ *VerifyContext) error {
	if b := op.Body(0); b != nil && len(b.Args) != 0 {
		return fmt.Errorf("body must have no arguments, but has %d", len(b.Args))
	}
	return nil
}

// LookupOp returns the definition of a registered operation, or nil.
//
// Most operation names share their bytes with their record's Name (the
// parser and the builders take it from the record or from the same string
// constant), so a small table keyed by the address of those bytes answers
// before the map: the printer, the verifier and the passes look an op up
// several times each.
func LookupOp(name string) *OpDef {
	p := unsafe.StringData(name)
	slot := &lookupCache[(uintptr(unsafe.Pointer(p))>>3)&uintptr(len(lookupCache)-1)]
	if d := slot.Load(); d != nil && unsafe.StringData(d.Name) == p && len(d.Name) == len(name) {
		return d
	}
	d := opDefs[name]
	if d != nil && unsafe.StringData(d.Name) == p {
		slot.Store(d)
	}
	return d
}

// lookupCache is LookupOp's table: a record whose Name's bytes hash to the
// slot (a miss falls back to the map; a collision only replaces the entry).
var lookupCache [512]atomic.Pointer[OpDef]

// NumOps is the number of registered operations: one more than the largest
// OpDef.Index.
func NumOps() int { return len(opDefs) }

// OpNames lists every registered operation name, sorted.
func OpNames() []string {
	ns := make([]string, 0, len(opDefs))
	for n := range opDefs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// DialectOps returns the records of the registered operations of a dialect
// (the names "dialect.*"), sorted by name: what a dialect's completeness
// tests walk.
func DialectOps(dialect string) []*OpDef {
	var ds []*OpDef
	for _, n := range OpNames() {
		if strings.HasPrefix(n, dialect+".") {
			ds = append(ds, opDefs[n])
		}
	}
	return ds
}

// IsElementwise reports whether the op applies a scalar function per element
// (binary, unary, cmp, select, cast).
func IsElementwise(name string) bool {
	d := opDefs[name]
	return d != nil && d.Has(Elementwise)
}

// Dialects lists the dialects of the registered operations (the part of each
// name before its first dot, "builtin" included), sorted, as mlir-opt's
// --show-dialects.
func Dialects() []string {
	seen := map[string]bool{"builtin": true}
	for n := range opDefs {
		if d, _, ok := strings.Cut(n, "."); ok {
			seen[d] = true
		}
	}
	ds := make([]string, 0, len(seen))
	for d := range seen {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	return ds
}

// RegisterOp adds an operation of another dialect (such as `dais`) to the
// registry. It panics on a duplicate name or a format that does not compile
// against the record's declarations (programming errors at start-up).
func RegisterOp(d OpDef) *OpDef {
	if _, dup := opDefs[d.Name]; dup {
		panic("ir: duplicate operation " + d.Name)
	}
	def := d
	f, err := CompileFormat(&def)
	if err != nil {
		panic(err.Error())
	}
	def.asm = f
	if f != nil {
		f.def = &def
	}
	def.index = len(opDefs)
	opDefs[d.Name] = &def
	return &def
}

// A Family is one file's operations in a dialect: their records, what they
// need registered before them, and those of them that need no Verify hook.
type Family struct {
	Ops []OpDef
	// Register, when set, registers what the records need first: the custom
	// directives of their formats and the family's dialect-wide rules.
	Register func()
	// NoVerify is the family's entries of the dialect's NoVerify (see
	// RecordProblems).
	NoVerify map[string]string
}

// RegisterFamilies registers a dialect's families: every Register first (a
// record's format is compiled when the record is registered), then the
// records in order; it gathers the families' NoVerify entries into noVerify.
func RegisterFamilies(noVerify map[string]string, families ...Family) {
	for _, f := range families {
		if f.Register != nil {
			f.Register()
		}
	}
	for _, f := range families {
		for _, d := range f.Ops {
			RegisterOp(d)
		}
		maps.Copy(noVerify, f.NoVerify)
	}
}

// FamilyProblems reports each record of the families that is not the one
// registered under its name, and a dialect whose registered ops are fewer
// than min or not exactly the families' records.
func FamilyProblems(dialect string, min int, families ...Family) []string {
	var ps []string
	n := 0
	for _, f := range families {
		for i := range f.Ops {
			n++
			if d := LookupOp(f.Ops[i].Name); d == nil || (d.Verify == nil) != (f.Ops[i].Verify == nil) {
				ps = append(ps, f.Ops[i].Name+": the family's record is not the one registered")
			}
		}
	}
	if got := len(DialectOps(dialect)); got != n || got < min {
		ps = append(ps, fmt.Sprintf("%d %s ops registered, the families hold %d (at least %d expected)", got, dialect, n, min))
	}
	return ps
}

// DialectRecordProblems is RecordProblems for every registered op of a
// dialect, each problem prefixed with the op's name.
func DialectRecordProblems(dialect string, noVerify map[string]string) []string {
	var ps []string
	for _, d := range DialectOps(dialect) {
		for _, p := range RecordProblems(d, noVerify) {
			ps = append(ps, d.Name+": "+p)
		}
	}
	return ps
}
