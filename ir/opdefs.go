package ir

import (
	"fmt"
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
