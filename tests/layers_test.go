package tests

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// The layers of the module, from the ground up (docs/architecture.md). A
// package may import packages of its own layer and of the layers below it,
// never of a layer above. Layer 4 is four sublayers, each a folder of the
// tree: formats and interpreters (backend/), dialect-level lowerings
// (lower/), network lowerings (lower/nn/), pipelines (pipelines/). Each
// package belongs to the layer of the longest prefix below that matches its
// path (relative to the module); a package that matches none fails the
// test, so that a new package is placed on purpose. Only the packages' own
// imports count: a package's tests may use any layer (the tests of ir parse
// their inputs, for example).
var layers = []struct {
	rank     int    // the position in the table: imports run to equal or lower ranks
	label    string // the layer's number in docs/architecture.md
	name     string
	prefixes []string
}{
	{0, "0", "ground", []string{"internal", "ir", "diag"}},
	{1, "1", "dialect definitions and typing rules", []string{"dialect", "typing"}},
	{2, "2", "parser", []string{"parse"}},
	{3, "3", "passes", []string{"passes"}},
	{4, "4a", "formats and interpreters", []string{"backend"}},
	{5, "4b", "dialect-level lowerings", []string{"lower"}},
	{6, "4c", "network lowerings", []string{"lower/nn"}},
	{7, "4d", "pipelines", []string{"pipelines"}},
	{8, "5", "commands, tests and benchmark harnesses", []string{"cmd", "tests", "bench"}},
}

// knownUpward lists the upward imports that are still to be removed, each
// as "importer imported". The test fails if one of them disappears, so that
// it is taken off this list.
// None is left: keep the mechanism for a move that takes more than one step.
var knownUpward = map[string]bool{}

const modulePath = "github.com/otir-dev/otir"

// layerOf returns the layer of a package path relative to the module.
func layerOf(rel string) (int, bool) {
	best, layer := -1, 0
	for _, l := range layers {
		for _, p := range l.prefixes {
			if (rel == p || strings.HasPrefix(rel, p+"/")) && len(p) > best {
				best, layer = len(p), l.rank
			}
		}
	}
	return layer, best >= 0
}

func TestLayers(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, "./...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	rel := func(path string) (string, bool) {
		if path == modulePath {
			return "", true
		}
		r, ok := strings.CutPrefix(path, modulePath+"/")
		return r, ok
	}
	seen := map[string]bool{}
	packages := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg, ok := rel(fields[0])
		if !ok {
			t.Errorf("package %s is outside module %s", fields[0], modulePath)
			continue
		}
		packages++
		from, ok := layerOf(pkg)
		if !ok {
			t.Errorf("package %s has no layer: add its prefix to the table in layers_test.go", pkg)
			continue
		}
		for _, imp := range fields[1:] {
			dep, ok := rel(imp)
			if !ok {
				continue // the standard library or a third-party module
			}
			to, ok := layerOf(dep)
			if !ok {
				continue // reported as a package of its own
			}
			if to <= from {
				continue
			}
			key := pkg + " " + dep
			if knownUpward[key] {
				seen[key] = true
				continue
			}
			t.Errorf("%s (layer %s, %s) imports %s (layer %s, %s): an import must not run upward",
				pkg, layers[from].label, layers[from].name, dep, layers[to].label, layers[to].name)
		}
	}
	if packages == 0 {
		t.Fatal("go list listed no packages")
	}
	var gone []string
	for key := range knownUpward {
		if !seen[key] {
			gone = append(gone, key)
		}
	}
	sort.Strings(gone)
	for _, key := range gone {
		t.Errorf("the known upward import %q is gone: remove it from knownUpward", key)
	}
}

// TestLayerTable checks the table itself: layers ranked in order, and no
// prefix given twice.
func TestLayerTable(t *testing.T) {
	prefixes := map[string]bool{}
	for i, l := range layers {
		if l.rank != i {
			t.Errorf("layer %q is ranked %d at position %d", l.name, l.rank, i)
		}
		for _, p := range l.prefixes {
			if prefixes[p] {
				t.Errorf("prefix %q is in two layers", p)
			}
			prefixes[p] = true
		}
	}
}
