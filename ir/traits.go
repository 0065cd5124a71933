package ir

// traitNames spells the traits as the documentation does.
var traitNames = []struct {
	t    Trait
	name string
}{
	{Terminator, "Terminator"}, {Elementwise, "Elementwise"}, {IsolatedFromAbove, "IsolatedFromAbove"},
	{SingleBlock, "SingleBlock"}, {NoTerminator, "NoTerminator"}, {TopLevel, "TopLevel"}, {Extension, "Extension"},
	{Symbol, "Symbol"}, {VariadicRegions, "VariadicRegions"}, {SignedOperands, "SignedOperands"}, {UnsignedOperands, "UnsignedOperands"},
}

// Names lists the traits of t by name, in declaration order.
func (t Trait) Names() []string {
	var ns []string
	for _, tn := range traitNames {
		if t&tn.t != 0 {
			ns = append(ns, tn.name)
		}
	}
	return ns
}

// String is the names of the traits of t, comma-separated.
func (t Trait) String() string {
	s := ""
	for i, n := range t.Names() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// String spells an effect as the documentation does.
func (e Effect) String() string {
	switch e {
	case NoEffect:
		return "none"
	case AllocEffect:
		return "alloc"
	case ReadEffect:
		return "read"
	case WriteEffect:
		return "write"
	}
	return "unknown"
}

// allTraits is every trait bit declared above; TestTraitNames checks that
// each has a name.
const allTraits = Terminator | Elementwise | IsolatedFromAbove | SingleBlock | NoTerminator | TopLevel | Extension | Symbol | VariadicRegions |
	SignedOperands | UnsignedOperands
