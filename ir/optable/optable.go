// Package optable is the one table type that maps operations to what a
// consumer does with them: the executor's semantics, lower-tiles' and
// nn-to-otir's lowerings, the nn evaluator's meanings. Each consumer keeps
// one table in one file, built from a map literal keyed by operation name;
// the table answers Lookup on the hot path by the op's dense index
// (ir.OpDef.Index) rather than by hashing its name, says whether an op is
// supported and why not (Support), and checks itself against the op
// registry (Complete), which is what every consumer's completeness test
// calls.
package optable

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/otir-dev/otir/ir"
)

// Table maps operation names to entries of type E.
type Table[E any] struct {
	what string // the table, for messages: "the executor's semantics"
	file string // the file that holds the entries, for messages
	// unsupported is an entry's reason the op is not supported ("": it
	// is); nil when no entry says so.
	unsupported func(E) string

	byName map[string]E
	// dense holds the entries of registered ops at their ir.OpDef.Index;
	// has tells which slots hold one. An op registered after its entry
	// was added is found in byName.
	dense []E
	has   []bool
}

// New makes the table of entries, keyed by operation name. what names the
// table ("the executor's semantics") and file the file that holds the
// entries, for messages; unsupported, when set, returns an entry's reason
// that the operation is not supported, or "".
func New[E any](what, file string, entries map[string]E, unsupported func(E) string) *Table[E] {
	t := &Table[E]{what: what, file: file, unsupported: unsupported, byName: map[string]E{}}
	for name, e := range entries {
		t.Add(name, e)
	}
	return t
}

// Add adds the entry of an operation; it panics if the op has one (a
// programming error at start-up).
func (t *Table[E]) Add(name string, e E) {
	if _, dup := t.byName[name]; dup {
		panic("optable: duplicate entry " + name + " in " + t.what)
	}
	t.byName[name] = e
	t.index(name, e, true)
}

// Remove removes the entry of an operation, if any (for tests that add an
// entry for an op of their own).
func (t *Table[E]) Remove(name string) {
	delete(t.byName, name)
	var zero E
	t.index(name, zero, false)
}

// index sets or clears the dense slot of a registered op.
func (t *Table[E]) index(name string, e E, set bool) {
	d := ir.LookupOp(name)
	if d == nil {
		return
	}
	if i := d.Index(); i >= len(t.dense) {
		n := max(ir.NumOps(), i+1)
		t.dense = append(t.dense, make([]E, n-len(t.dense))...)
		t.has = append(t.has, make([]bool, n-len(t.has))...)
	}
	t.dense[d.Index()], t.has[d.Index()] = e, set
}

// Lookup returns the entry of the named operation; ok is false when the
// table has none. A registered op is found by its index (the dispatch of
// every consumer), any other by name.
func (t *Table[E]) Lookup(name string) (e E, ok bool) {
	if d := ir.LookupOp(name); d != nil {
		if i := d.Index(); i < len(t.has) && t.has[i] {
			return t.dense[i], true
		}
	}
	e, ok = t.byName[name]
	return e, ok
}

// Support reports whether the table supports the named operation, and if
// not, why: "no entry", or the reason its entry gives (for documentation
// such as otir-opt --list-ops, and for errors).
func (t *Table[E]) Support(name string) (ok bool, why string) {
	e, found := t.Lookup(name)
	switch {
	case !found:
		return false, "no entry"
	case t.unsupported != nil && t.unsupported(e) != "":
		return false, t.unsupported(e)
	}
	return true, ""
}

// Names lists the operations that have an entry, sorted.
func (t *Table[E]) Names() []string {
	ns := make([]string, 0, len(t.byName))
	for n := range t.byName {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Completeness is what Complete checks a table against.
type Completeness[E any] struct {
	// Dialects are the dialects whose every registered op needs an entry
	// ("otir", "scf", "builtin").
	Dialects []string
	// NotInTable lists the ops of those dialects that have no entry, each
	// with why (the structure the consumer walks itself).
	NotInTable map[string]string
	// Check, when set, checks one entry ("exactly one of run, elem, ends
	// and unsupported").
	Check func(name string, e E) error
}

// Complete checks the table against the op registry: every registered op
// of c.Dialects has an entry or is listed in c.NotInTable (and then has
// none), every entry names a registered op, and c.Check accepts every
// entry. It returns one error per problem, in name order.
func (t *Table[E]) Complete(c Completeness[E]) []error {
	var errs []error
	for _, d := range c.Dialects {
		for _, def := range ir.DialectOps(d) {
			name := def.Name
			_, ok := t.byName[name]
			if why, skip := c.NotInTable[name]; skip {
				if ok {
					errs = append(errs, fmt.Errorf("%s has an entry in %s but is listed in NotInTable (%s)", name, t.what, why))
				}
				continue
			}
			if !ok {
				or := ""
				if t.unsupported != nil {
					or = `, or unsupported("reason")`
				}
				errs = append(errs, fmt.Errorf("%s has no entry in %s (%s): add one%s", name, t.what, t.file, or))
			}
		}
	}
	for _, name := range t.Names() {
		if ir.LookupOp(name) == nil {
			errs = append(errs, fmt.Errorf("%s has an entry for %s, which is not a registered operation", t.what, name))
			continue
		}
		if d, _, _ := strings.Cut(name, "."); !slices.Contains(c.Dialects, d) {
			errs = append(errs, fmt.Errorf("%s has an entry for %s, which is not of the dialects %v", t.what, name, c.Dialects))
		}
		if c.Check != nil {
			if err := c.Check(name, t.byName[name]); err != nil {
				errs = append(errs, fmt.Errorf("%s: %v", name, err))
			}
		}
	}
	return errs
}

// ExactlyOne returns an error unless exactly one of set is true: the
// check of an entry whose kinds exclude each other (names lists them, for
// the message).
func ExactlyOne(names string, set ...bool) error {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	if n != 1 {
		return fmt.Errorf("its entry must have exactly one of %s; it has %d", names, n)
	}
	return nil
}
