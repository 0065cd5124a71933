package tests

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// An operation is defined once: adding one means editing its dialect's file
// (name, record, verifier hook, builders, assembly directives), one entry in
// the executor's table and one in the lowering's (docs/adding-an-op.md).
// TestOpNamedInThreeFiles keeps it so: no OTIR operation is named in more
// than three non-test Go files. An operation is named by its constant
// (otir.OpDMA, or OpDMA inside its dialect's package) or by its string
// ("otir.dma_copy_async"); comments do not count.
//
// Passes that rewrite particular operations name them too; they are listed
// in extraNamers, each with the operations it may name and why.

// maxNamingFiles is the definition, the executor and the lowering.
const maxNamingFiles = 3

var extraNamers = map[string]struct {
	ops []string
	why string
}{
	"passes/promote/tree.go": {
		[]string{"otir.add", "otir.sub", "otir.mul", "otir.neg", "otir.cast"},
		"promote-types rebuilds add/sub/mul expressions as Allo's balanced trees of casts, negations, adds and muls",
	},
	"lower/nn/kernels/emit.go": {
		[]string{"otir.add", "otir.sub", "otir.mul", "otir.div_s", "otir.div_u", "otir.and", "otir.shl", "otir.shr_s", "otir.shr_u",
			"otir.max", "otir.min", "otir.abs", "otir.matmul", "otir.load", "otir.store", "otir.reshape", "otir.transpose",
			"otir.extract_slice", "otir.insert_slice", "otir.reduce"},
		"nn-to-otir builds the kernel of an nn graph out of these operations (its one file that names otir operations)",
	},
	"backend/onnximport/ops.go": {
		[]string{"nn.const", "nn.add", "nn.sub", "nn.mul", "nn.max", "nn.min", "nn.relu", "nn.tanh", "nn.sigmoid", "nn.sqrt",
			"nn.exp", "nn.log", "nn.abs", "nn.sin", "nn.cos", "nn.inv", "nn.linear", "nn.matmul", "nn.conv2d",
			"nn.max_pool2d", "nn.avg_pool2d", "nn.softmax", "nn.layer_norm", "nn.reduce_sum", "nn.reduce_mean",
			"nn.permute", "nn.broadcast_to", "nn.reshape", "nn.concat", "nn.quant", "nn.bipolar_quant", "nn.trunc", "nn.float_quant", "nn.multithreshold"},
		"the ONNX importer translates each ONNX operator into the nn node kinds that compute it",
	},
	"lower/nn/qonnx/kinds.go": {
		[]string{"nn.add", "nn.bipolar_quant", "nn.broadcast_to", "nn.const", "nn.detach", "nn.flatten", "nn.graph", "nn.inv",
			"nn.matmul", "nn.max", "nn.min", "nn.mul", "nn.permute", "nn.quant", "nn.relu", "nn.reshape", "nn.return",
			"nn.softmax", "nn.sub", "nn.swap_first_two", "nn.transpose3d_last_two", "nn.trunc",
			"nn.exp", "nn.max_pool2d", "nn.reduce_sum", "nn.conv2d", "nn.avg_pool2d", "nn.concat", "nn.float_quant", "nn.sigmoid", "nn.tanh",
			"nn.linear", "nn.multithreshold"},
		"nn-absorb-quant absorbs the QONNX quantizers, affine and shape kinds of a float graph into a quantized graph of integer nodes (its one file that names nn operations)",
	},
	"passes/promote/rewrite.go": {
		[]string{"otir.cast"},
		"promote-types makes every implicit conversion an explicit otir.cast",
	},
	"lower/nn/quantize/saturate.go": {
		[]string{"nn.const", "nn.relu", "nn.requantize"},
		"nn-quantize's overflow=saturate and round=nearest quantize a tensor with an explicit nn.requantize (a tensor read by relus only stays exact; constants keep their rounding)",
	},
	"lower/nn/quantize/decompose.go": {
		[]string{"nn.softmax", "nn.layer_norm", "nn.exp", "nn.reduce_sum", "nn.inv", "nn.mul", "nn.reshape", "nn.broadcast_to",
			"nn.reduce_mean", "nn.sub", "nn.sqrt", "nn.add", "nn.const", "nn.flatten", "nn.permute", "nn.swap_first_two", "nn.transpose3d_last_two", "nn.detach"},
		"nn-quantize decomposes softmax and layer_norm into primitive nodes (a quantized graph may not hold them; layer_norm's epsilon an inline nn.const), and gives the shape kinds their operand's type",
	},
}

// dialectDirs are the dialects whose operations the rule covers.
var dialectDirs = []string{"dialect/otir", "dialect/scf", "dialect/nn"}

func TestOpNamedInThreeFiles(t *testing.T) {
	root := ".."
	type opName struct{ pkg, ident, name string }
	var ops []opName
	constRe := regexp.MustCompile(`^(\w+)\.\w+$`)
	for _, dir := range dialectDirs {
		pkg := filepath.Base(dir)
		for _, f := range goFiles(t, filepath.Join(root, dir), false) {
			file, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range file.Decls {
				gd, ok := decl.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if i >= len(vs.Values) {
							continue
						}
						lit, ok := vs.Values[i].(*ast.BasicLit)
						if !ok || lit.Kind != token.STRING {
							continue
						}
						s, _ := strconv.Unquote(lit.Value)
						if m := constRe.FindStringSubmatch(s); m != nil && m[1] == pkg && strings.HasPrefix(id.Name, "Op") {
							ops = append(ops, opName{pkg, id.Name, s})
						}
					}
				}
			}
		}
	}
	if len(ops) < 40 {
		t.Fatalf("found only %d operation names in %v: the test no longer reads the dialects", len(ops), dialectDirs)
	}
	// Every non-test Go file of the module, comments removed.
	comment := regexp.MustCompile(`(?m)//.*$`)
	files := map[string]string{}
	for _, f := range goFiles(t, root, true) {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, f)
		files[filepath.ToSlash(rel)] = comment.ReplaceAllString(string(src), "")
	}
	for _, op := range ops {
		qualified := regexp.MustCompile(`\b` + op.pkg + `\.` + op.ident + `\b`)
		bare := regexp.MustCompile(`(^|[^\w.])` + op.ident + `\b`)
		literal := strconv.Quote(op.name)
		var naming []string
		for rel, src := range files {
			inDialect := filepath.Dir(rel) == "dialect/"+op.pkg
			if qualified.MatchString(src) || inDialect && bare.MatchString(src) || strings.Contains(src, literal) {
				if x, ok := extraNamers[rel]; ok && contains(x.ops, op.name) {
					continue
				}
				naming = append(naming, rel)
			}
		}
		sort.Strings(naming)
		if len(naming) > maxNamingFiles {
			t.Errorf("%s is named in %d files (at most %d: its definition, the executor's table, the lowering's table): %s",
				op.name, len(naming), maxNamingFiles, strings.Join(naming, ", "))
		}
	}
}

// goFiles lists the .go files under dir (recursively when deep), without
// tests.
func goFiles(t *testing.T, dir string, deep bool) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (!deep || strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
