package quantize

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/otir-dev/otir/dialect/quant"
	"github.com/otir-dev/otir/internal/readlimit"
	"github.com/otir-dev/otir/ir"
)

// maxQuantFileBytes bounds a quant.json.
const maxQuantFileBytes = 16 << 20

// quantSpec is a quant.json: its file and its tensors by SSA name, in the
// order of the file's keys.
type quantSpec struct {
	path    string
	keys    []string
	tensors map[string]quantEntry
}

// quantEntry is one tensor of a quant.json: exact, or a quantized type.
type quantEntry struct {
	exact bool
	elem  *quant.UniformType
}

// tensorJSON is the part of a tensor entry nn-quantize reads (op, int and
// the rest are notes for readers).
type tensorJSON struct {
	KIF  json.RawMessage `json:"kif"`
	Mode string          `json:"mode"`
	Type string          `json:"type"`
}

// readQuantSpec reads and checks a quant.json: every entry's kif is
// [k, i, f] of a valid type (or null with mode "exact"), and its "type",
// when given, is the type of its kif.
func readQuantSpec(path string) (*quantSpec, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading the quantization: %v", err)
	}
	if st.Size() > maxQuantFileBytes {
		return nil, fail("the file has %d bytes (at most %d)", st.Size(), maxQuantFileBytes)
	}
	data, err := readlimit.File(path, maxQuantFileBytes, "") // a device has no size to check
	if err != nil {
		return nil, fmt.Errorf("reading the quantization: %v", err)
	}
	return parseQuantSpec(path, data)
}

func parseQuantSpec(path string, data []byte) (*quantSpec, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", path, fmt.Sprintf(format, args...))
	}
	var top struct {
		Tensors json.RawMessage `json:"tensors"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fail("not a quant.json: %v", err)
	}
	if len(top.Tensors) == 0 || string(top.Tensors) == "null" {
		return nil, fail("no \"tensors\" object (each tensor by SSA name: {\"%%x\": {\"kif\": [1, 5, 3]}, ...})")
	}
	keys, err := objectKeys(top.Tensors)
	if err != nil {
		return nil, fail("\"tensors\" must be an object of tensors by SSA name: %v", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(top.Tensors, &raw); err != nil {
		return nil, fail("\"tensors\" must be an object of tensors by SSA name: %v", err)
	}
	spec := &quantSpec{path: path, keys: keys, tensors: map[string]quantEntry{}}
	for _, key := range keys {
		if !strings.HasPrefix(key, "%") || len(key) == 1 {
			return nil, fail("key '%s' is not an SSA name (%%x, %%1)", key)
		}
		var t tensorJSON
		if err := json.Unmarshal(raw[key], &t); err != nil {
			return nil, fail("key '%s': not a tensor entry ({\"kif\": [k, i, f]} or {\"kif\": null, \"mode\": \"exact\"}): %v", key, err)
		}
		e, err := t.entry()
		if err != nil {
			return nil, fail("key '%s': %v", key, err)
		}
		spec.tensors[key] = e
	}
	return spec, nil
}

// entry checks a tensor entry.
func (t tensorJSON) entry() (quantEntry, error) {
	if len(t.KIF) == 0 || string(t.KIF) == "null" {
		if t.Mode != "exact" {
			return quantEntry{}, fmt.Errorf("kif is null but mode is '%s': an unquantized tensor needs \"mode\": \"exact\"", t.Mode)
		}
		return quantEntry{exact: true}, nil
	}
	if t.Mode != "" && t.Mode != "exact" {
		return quantEntry{}, fmt.Errorf("unknown mode '%s' (the only mode is \"exact\", with kif null)", t.Mode)
	}
	if t.Mode == "exact" {
		return quantEntry{}, fmt.Errorf("mode is \"exact\" but kif is %s: an exact tensor has kif null", t.KIF)
	}
	var kif []int
	if err := json.Unmarshal(t.KIF, &kif); err != nil || len(kif) != 3 {
		return quantEntry{}, fmt.Errorf("kif must be [k, i, f] (three integers), got %s", t.KIF)
	}
	q, err := quant.FromKIF(kif[0], kif[1], kif[2])
	if err != nil {
		return quantEntry{}, fmt.Errorf("kif %v: %v", kif, err)
	}
	if t.Type != "" && t.Type != q.String() {
		return quantEntry{}, fmt.Errorf("type '%s' is not the type of kif %v ('%s')", t.Type, kif, q)
	}
	return quantEntry{elem: q}, nil
}

// objectKeys lists the keys of a JSON object in their order in the text.
func objectKeys(obj json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("got %s", bytes.TrimSpace(obj)[:1])
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("key '%s' appears twice", key)
		}
		seen[key] = true
		keys = append(keys, key)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// lookup finds the tensor a key names.
func (s *quantSpec) lookup(gname, key string, names map[string]*ir.Value) (*ir.Value, error) {
	v, ok := names[key]
	if !ok {
		known := make([]string, 0, len(names))
		for k := range names {
			known = append(known, k)
		}
		sort.Strings(known)
		if hint := softmaxKeyHint(key, names); hint != "" {
			return nil, fmt.Errorf("%s: key '%s' names no tensor of graph @%s: %s", s.path, key, gname, hint)
		}
		return nil, fmt.Errorf("%s: key '%s' names no tensor of graph @%s (its tensors: %s)", s.path, key, gname, strings.Join(known, ", "))
	}
	return v, nil
}

// assign gives the keys' tensors of a float graph their types.
func (s *quantSpec) assign(gname string, names map[string]*ir.Value, types map[*ir.Value]assignment) error {
	for _, key := range s.keys {
		v, err := s.lookup(gname, key, names)
		if err != nil {
			return err
		}
		e := s.tensors[key]
		if e.exact {
			if v.Def == nil {
				return fmt.Errorf("%s: key '%s' is a graph argument, which cannot be exact: an argument quantizes the caller's input (give its kif)", s.path, key)
			}
			types[v] = assignment{exact: true, from: key}
			continue
		}
		types[v] = assignment{elem: e.elem, from: key}
	}
	return nil
}

// checkWritten checks a quant.json against a graph whose types are all
// written (already quantized): each key names a tensor of that type.
func (s *quantSpec) checkWritten(g *ir.Operation, gname string) error {
	names := valueNames(g)
	for _, key := range s.keys {
		v, err := s.lookup(gname, key, names)
		if err != nil {
			return err
		}
		e := s.tensors[key]
		elem := v.Type.(*ir.TensorType).Elem
		if e.exact && elem == ir.Type(ir.Float(ir.F64)) || !e.exact && elem == ir.Type(e.elem) {
			continue
		}
		return fmt.Errorf("%s: key '%s' gives %s, but the graph already has '%s' (a type written is kept)", s.path, key, e.describe(), v.Type)
	}
	return nil
}

func (e quantEntry) describe() string {
	if e.exact {
		return "exact (f64)"
	}
	return "'" + e.elem.String() + "'"
}
