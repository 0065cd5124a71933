package ir

import (
	"strings"
	"testing"
)

// TestTraitNames checks that every trait has a documentation name, so that a
// new trait cannot be left out of --list-ops.
func TestTraitNames(t *testing.T) {
	for bit := Trait(1); bit != 0 && bit <= allTraits; bit <<= 1 {
		if allTraits&bit == 0 {
			t.Errorf("trait bit %#x is not in allTraits", uint32(bit))
			continue
		}
		if len(bit.Names()) != 1 {
			t.Errorf("trait bit %#x has no name", uint32(bit))
		}
	}
	if (allTraits+1)&allTraits != 0 {
		t.Errorf("allTraits %#x is not a run of low bits: a trait is missing from it", uint32(allTraits))
	}
}

// RecordProblems names what a dialect's completeness test reports: here a
// record without a summary, a format or a Verify hook, one whose format
// names an undeclared operand, and a NoVerify reason beside a hook.
func TestRecordProblems(t *testing.T) {
	bare := &OpDef{Name: "t.bare"}
	got := strings.Join(RecordProblems(bare, nil), "; ")
	for _, want := range []string{"no summary", "no assembly format", "no Verify hook"} {
		if !strings.Contains(got, want) {
			t.Errorf("bare record: %q lacks %q", got, want)
		}
	}
	if ps := RecordProblems(bare, map[string]string{"t.bare": "no rules"}); strings.Contains(strings.Join(ps, ";"), "Verify") {
		t.Errorf("a NoVerify reason still reports the hook: %v", ps)
	}
	hooked := &OpDef{Name: "t.op", Summary: "s", Format: "$x attr-dict", Verify: func(*Operation, *VerifyContext) error { return nil }}
	got = strings.Join(RecordProblems(hooked, map[string]string{"t.op": "none"}), "; ")
	for _, want := range []string{"format refers to $x, which the record does not declare", "has a Verify hook but is listed in NoVerify"} {
		if !strings.Contains(got, want) {
			t.Errorf("hooked record: %q lacks %q", got, want)
		}
	}
}
