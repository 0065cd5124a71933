package passes

import (
	"fmt"
	"maps"
	"slices"
)

// maxExpansionDepth bounds pipelines that name pipelines (a registration
// that names itself is an error, not a hang).
const maxExpansionDepth = 8

// Expand replaces every registered pipeline in pl by the passes it stands
// for, recursively; the passes keep the anchor of the name they replace.
// NewManager expands on its own; a driver expands first to print the
// passes that will run (--dump-pass-pipeline).
func Expand(pl Pipeline) (Pipeline, error) { return expand(pl, 0) }

func expand(pl Pipeline, depth int) (Pipeline, error) {
	out := make(Pipeline, 0, len(pl))
	for _, s := range pl {
		if !s.Info.IsPipeline() {
			out = append(out, s)
			continue
		}
		if depth == maxExpansionDepth {
			return nil, fmt.Errorf("pipeline '%s' expands more than %d levels deep", s.Info.Name, maxExpansionDepth)
		}
		steps, err := s.Info.expand(s.Options.Struct())
		if err != nil {
			return nil, fmt.Errorf("pipeline '%s': %v", s.Info.Name, err)
		}
		if steps, err = expand(steps, depth+1); err != nil {
			return nil, err
		}
		for _, st := range steps {
			if st.Anchor == "" {
				st.Anchor = s.Anchor
			}
			out = append(out, st)
		}
	}
	return out, nil
}

// Spec is the spec of a registered pass with the given option values (as
// text) and the defaults of the others. An unknown pass or option, or an
// invalid value, is an error.
func Spec(name string, opts map[string]string) (PassSpec, error) {
	info := Lookup(name)
	if info == nil {
		return PassSpec{}, fmt.Errorf("'%s' does not refer to a registered pass", name)
	}
	spec := PassSpec{Info: info, Options: info.newOptions()}
	keys := slices.Sorted(maps.Keys(opts))
	for _, k := range keys {
		o := spec.Options.Lookup(k)
		if o == nil {
			return PassSpec{}, fmt.Errorf("%s", unknownOption(spec, k))
		}
		if err := setOption(info, o, opts[k]); err != nil {
			return PassSpec{}, err
		}
	}
	return spec, nil
}

// SpecOf is the spec of a registered pass with the options struct opts (a
// copy of it): how a registered pipeline makes its steps from the options
// structs its own embeds. opts must be a pointer to the pass's options
// struct.
func SpecOf(name string, opts Options) (PassSpec, error) {
	info := Lookup(name)
	if info == nil {
		return PassSpec{}, fmt.Errorf("'%s' does not refer to a registered pass", name)
	}
	v, ok := info.adopt(opts)
	if !ok {
		return PassSpec{}, fmt.Errorf("pass '%s' does not take options of type %T", name, opts)
	}
	return PassSpec{Info: info, Options: v}, nil
}
