package optable

import (
	"fmt"
	"strings"
	"testing"

	"github.com/otir-dev/otir/ir"
)

// The ops of a dialect of this test's own.
var testOps = []string{"optabletest.a", "optabletest.b", "optabletest.c", "optabletest.region"}

// benchOps are as many ops as the executor's table holds, in a dialect of
// their own.
var benchOps []string

func init() {
	for _, n := range testOps {
		ir.RegisterOp(ir.OpDef{Name: n})
	}
	for i := range 44 {
		benchOps = append(benchOps, ir.RegisterOp(ir.OpDef{Name: fmt.Sprintf("optablebench.op%d", i)}).Name)
	}
}

type entry struct {
	run, ends bool
	why       string
}

func newTable() *Table[entry] {
	return New("the test's table", "table.go", map[string]entry{
		"optabletest.a": {run: true},
		"optabletest.b": {why: "is not supported here"},
		"optabletest.c": {ends: true},
	}, func(e entry) string { return e.why })
}

func TestLookupAndSupport(t *testing.T) {
	tab := newTable()
	for _, tc := range []struct {
		name   string
		found  bool
		ok     bool
		reason string
	}{
		{"optabletest.a", true, true, ""},
		{"optabletest.b", true, false, "is not supported here"},
		{"optabletest.c", true, true, ""},
		{"optabletest.region", false, false, "no entry"},
		{"optabletest.unregistered", false, false, "no entry"},
		{"", false, false, "no entry"},
	} {
		_, found := tab.Lookup(tc.name)
		ok, why := tab.Support(tc.name)
		if found != tc.found || ok != tc.ok || why != tc.reason {
			t.Errorf("%q: Lookup found %v, Support (%v, %q); want %v, (%v, %q)", tc.name, found, ok, why, tc.found, tc.ok, tc.reason)
		}
	}
	// An op without a registered record is looked up by name; Remove
	// removes either kind of entry.
	tab.Add("optabletest.unregistered", entry{run: true})
	if e, ok := tab.Lookup("optabletest.unregistered"); !ok || !e.run {
		t.Errorf("Lookup of an added unregistered op = %+v, %v", e, ok)
	}
	for _, n := range []string{"optabletest.unregistered", "optabletest.a"} {
		tab.Remove(n)
		if _, ok := tab.Lookup(n); ok {
			t.Errorf("%s: still found after Remove", n)
		}
	}
	if got := strings.Join(tab.Names(), " "); got != "optabletest.b optabletest.c" {
		t.Errorf("Names() = %s", got)
	}
}

func TestAddDuplicatePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "duplicate entry optabletest.a") {
			t.Errorf("recover() = %v, want a duplicate-entry panic", r)
		}
	}()
	newTable().Add("optabletest.a", entry{})
}

// TestComplete: each kind of problem is reported once, in name order.
func TestComplete(t *testing.T) {
	check := func(_ string, e entry) error {
		return ExactlyOne("run, ends and why", e.run, e.ends, e.why != "")
	}
	complete := Completeness[entry]{
		Dialects:   []string{"optabletest"},
		NotInTable: map[string]string{"optabletest.region": "is walked by the caller"},
		Check:      check,
	}
	if errs := newTable().Complete(complete); len(errs) != 0 {
		t.Errorf("a complete table: %v", errs)
	}

	tab := newTable()
	tab.Remove("optabletest.a")
	tab.Add("optabletest.region", entry{run: true})
	tab.Add("optabletest.unregistered", entry{run: true})
	tab.Add(ir.OpModule, entry{run: true})
	tab.Remove("optabletest.c")
	tab.Add("optabletest.c", entry{run: true, ends: true})
	var got []string
	for _, err := range tab.Complete(complete) {
		got = append(got, err.Error())
	}
	want := []string{
		`optabletest.a has no entry in the test's table (table.go): add one, or unsupported("reason")`,
		`optabletest.region has an entry in the test's table but is listed in NotInTable (is walked by the caller)`,
		`the test's table has an entry for builtin.module, which is not of the dialects [optabletest]`,
		`optabletest.c: its entry must have exactly one of run, ends and why; it has 2`,
		`the test's table has an entry for optabletest.unregistered, which is not a registered operation`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Complete:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// BenchmarkLookup is the dispatch the consumers do once per operation: the
// table's Lookup (a slice indexed by the op's record) against the map keyed
// by name that each consumer kept before (issue 30).
func BenchmarkLookup(b *testing.B) {
	names := benchOps
	entries := map[string]entry{}
	for _, n := range names {
		entries[n] = entry{run: true}
	}
	tab := New("the benchmark", "", entries, nil)
	b.Run("map", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, ok := entries[names[i%len(names)]]; !ok {
				b.Fatal("missing")
			}
		}
	})
	b.Run("table", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, ok := tab.Lookup(names[i%len(names)]); !ok {
				b.Fatal("missing")
			}
		}
	})
	// Names whose bytes are not the records' miss ir.LookupOp's cache and
	// hash the name once, as the map does.
	var copies []string
	for _, n := range names {
		copies = append(copies, strings.Clone(n))
	}
	b.Run("table-copied-names", func(b *testing.B) {
		for i := 0; b.Loop(); i++ {
			if _, ok := tab.Lookup(copies[i%len(copies)]); !ok {
				b.Fatal("missing")
			}
		}
	})
}
