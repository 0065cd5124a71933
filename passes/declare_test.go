package passes

import (
	"strings"
	"testing"
)

// twoSteps embeds two steps that share an option (tag) and one that only
// the second declares.
type twoSteps struct {
	First  tagOptions
	Second checkedOptions
	Third  tagOptions
}

func (o *twoSteps) Declare(d *Decl) {
	d.Step("first", &o.First)
	d.Step("second", &o.Second)
	d.Step("third", &o.Third)
	o.Second.Bits = 16 // a default of the pipeline's own
}

// A pipeline's options are its steps' options: one option per name,
// setting every step's field, its help led by the steps that declare it,
// its default the pipeline's own when it sets one.
func TestDeclStepsShareOptions(t *testing.T) {
	o := &twoSteps{}
	v := declare(o)
	var names []string
	for _, opt := range v.List() {
		names = append(names, opt.Name)
	}
	if got := strings.Join(names, " "); got != "tag type bits depth" {
		t.Fatalf("options %q, want \"tag type bits depth\"", got)
	}
	tag := v.Lookup("tag")
	if tag.Help != "first, third: " || tag.Default != "x" {
		t.Errorf("tag: help %q, default %q", tag.Help, tag.Default)
	}
	if bits := v.Lookup("bits"); bits.Default != "16" || !strings.HasPrefix(bits.Help, "second: ") {
		t.Errorf("bits: help %q, default %q", bits.Help, bits.Default)
	}
	if err := tag.setText("z"); err != nil || o.First.Tag != "z" || o.Third.Tag != "z" {
		t.Errorf("tag=z set %q and %q (%v)", o.First.Tag, o.Third.Tag, err)
	}
}

// An option declared twice outside a pipeline's steps is a programming
// error, caught when the pass registers.
func TestDeclTwicePanics(t *testing.T) {
	defer func() {
		if r := recover(); r == nil {
			t.Error("declaring tag twice did not panic")
		}
	}()
	d := &Decl{}
	var a, b string
	d.String(&a, "tag", "", "")
	d.String(&b, "tag", "", "")
}

// A context keeps the value of each type: provided by a driver, or made on
// first use and shared by every later use.
func TestContext(t *testing.T) {
	type counter struct{ n int }
	ctx := NewContext()
	made := 0
	mk := func() *counter { made++; return &counter{} }
	a, b := Use(ctx, mk), Use(ctx, mk)
	if a != b || made != 1 {
		t.Errorf("Use made %d values (%p, %p), want one shared", made, a, b)
	}
	given := &counter{n: 7}
	Provide(ctx, given)
	if Use(ctx, mk) != given {
		t.Error("Use ignored the provided value")
	}
}

// An EnumVar sets a field of its own type from a word and prints it back;
// an Enum's default outside its list ("") reads back too.
func TestEnumVar(t *testing.T) {
	type level int
	var l level
	var s string
	d := &Decl{}
	lo := EnumVar(d, &l, "level", level(2), []string{"low", "high"}, []level{1, 2}, "")
	so := d.Enum(&s, "style", "", []string{"hls", "cpp"}, "")
	if lo.get() != "high" || lo.ValueHint() != "low|high" {
		t.Errorf("level: %q, hint %q", lo.get(), lo.ValueHint())
	}
	if err := lo.setText("low"); err != nil || l != 1 {
		t.Errorf("level=low: %v, %d", err, l)
	}
	if err := lo.setText("mid"); err == nil || err.Error() != "expected one of: low, high" {
		t.Errorf("level=mid: %v", err)
	}
	if err := so.setText(""); err != nil || s != "" {
		t.Errorf("style=\"\": %v", err)
	}
}
