package passes

import (
	"strings"
	"testing"
)

// Registered pipelines of the tests: test-pipe stands for two test-marks,
// the second with its options (test-pipe embeds them); test-loop names
// itself.
type pipeOptions struct{ Second tagOptions }

func (o *pipeOptions) Declare(d *Decl) {
	d.Step("test-mark", &o.Second)
	o.Second.Tag = "b"
}

func init() {
	RegisterPipeline(Info{Name: "test-pipe"}, func(o *pipeOptions) (Pipeline, error) {
		a, err := SpecOf("test-mark", &tagOptions{Tag: "a"})
		if err != nil {
			return nil, err
		}
		b, err := SpecOf("test-mark", &o.Second)
		return Pipeline{a, b}, err
	})
	RegisterPipeline(Info{Name: "test-loop"}, func(*NoOptions) (Pipeline, error) {
		s, err := Spec("test-loop", nil)
		return Pipeline{s}, err
	})
	RegisterPipeline(Info{Name: "test-bad-step"}, func(*NoOptions) (Pipeline, error) {
		s, err := Spec("test-mark", map[string]string{"colour": "red"})
		return Pipeline{s}, err
	})
	RegisterPipeline(Info{Name: "test-bad-type"}, func(*NoOptions) (Pipeline, error) {
		s, err := SpecOf("test-mark", &testOptions{})
		return Pipeline{s}, err
	})
}

func TestExpand(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: "builtin.module(test-pipe)", want: "builtin.module(test-mark{tag=a},test-mark{tag=b})"},
		{in: "builtin.module(test-noop,test-pipe{tag=z},test-noop)", want: "builtin.module(test-noop,test-mark{tag=a},test-mark{tag=z},test-noop)"},
		{in: "builtin.module(otir.kernel(test-pipe))", want: "builtin.module(otir.kernel(test-mark{tag=a},test-mark{tag=b}))"},
		{in: "builtin.module(test-loop)", err: "pipeline 'test-loop' expands more than 8 levels deep"},
		{in: "builtin.module(test-bad-step)", err: "pipeline 'test-bad-step': pass 'test-mark' has no option 'colour'"},
		{in: "builtin.module(test-bad-type)", err: "pipeline 'test-bad-type': pass 'test-mark' does not take options of type *passes.testOptions"},
	} {
		pl, err := ParsePipeline(tc.in)
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		got, err := Expand(pl)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: got %v, want an error containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if got.String() != tc.want {
			t.Errorf("%s expanded to %s, want %s", tc.in, got, tc.want)
		}
	}
}

// The manager runs a registered pipeline's passes one by one, each with its
// own options (the instrumentation sees each step).
func TestManagerRunsPipelineSteps(t *testing.T) {
	pl, err := ParsePipeline("builtin.module(test-pipe{tag=q},test-mark{tag=c})")
	if err != nil {
		t.Fatal(err)
	}
	pm, err := NewManager(pl)
	if err != nil {
		t.Fatal(err)
	}
	m := newModule()
	if ds := pm.Run(m); ds.HasErrors() {
		t.Fatal(ds)
	}
	if s, _ := m.Op.StringAttr("trace"); s != "aqc" {
		t.Errorf("trace = %q, want \"aqc\"", s)
	}
	if _, err := Spec("no-such-pass", nil); err == nil || !strings.Contains(err.Error(), "'no-such-pass' does not refer to a registered pass") {
		t.Errorf("Spec of an unknown pass: %v", err)
	}
	if _, err := Spec("test-opts", map[string]string{"count": "x"}); err == nil {
		t.Errorf("Spec accepted count=x for an integer option")
	}
}
