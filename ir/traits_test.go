package ir

import "testing"

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
