package passes

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// OptionArg is one `key=value` of a pass's option list as written, with the
// byte offsets of the key and the value in the text it came from.
type OptionArg struct {
	Key, Value     string
	HasValue       bool
	KeyOff, ValOff int
}

// ParseOptions reads a pass option list: `key=value` items separated by
// whitespace, as MLIR writes them (`{style=cpp verbose}`). A value is bare
// text, or quoted with "...", '...' or {...} to hold spaces. A surrounding
// pair of braces is accepted. base is added to every offset (the position of
// text in a larger string, for error carets).
func ParseOptions(text string, base int) ([]OptionArg, error) {
	inner, off := text, base
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
		start := strings.Index(text, "{")
		inner, off = text[start+1:strings.LastIndex(text, "}")], base+start+1
	}
	var args []OptionArg
	i := 0
	for {
		for i < len(inner) && isSpace(inner[i]) {
			i++
		}
		if i == len(inner) {
			return args, nil
		}
		ks := i
		for i < len(inner) && isNameChar(inner[i]) {
			i++
		}
		if ks == i {
			return nil, &PipelineError{Offset: off + i, Msg: fmt.Sprintf("expected an option name, found '%c'", inner[i])}
		}
		a := OptionArg{Key: inner[ks:i], KeyOff: off + ks}
		if i < len(inner) && inner[i] == '=' {
			i++
			a.HasValue, a.ValOff = true, off+i
			v, n, err := scanValue(inner[i:])
			if err != nil {
				pe := err.(*PipelineError)
				pe.Offset += off + i
				return nil, pe
			}
			a.Value = v
			i += n
		}
		if i < len(inner) && !isSpace(inner[i]) {
			return nil, &PipelineError{Offset: off + i, Msg: fmt.Sprintf("expected whitespace between options, found '%c'", inner[i])}
		}
		args = append(args, a)
	}
}

// scanValue reads one option value at the start of s and returns it and the
// number of bytes consumed. Errors are *PipelineError with offsets into s.
func scanValue(s string) (string, int, error) {
	if s == "" {
		return "", 0, nil
	}
	switch s[0] {
	case '"', '\'':
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return "", 0, &PipelineError{Msg: "unterminated quoted option value"}
		}
		return s[1 : end+1], end + 2, nil
	case '{':
		// Match braces, skipping quoted text (which may hold braces).
		depth := 0
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '"', '\'':
				end := strings.IndexByte(s[i+1:], s[i])
				if end < 0 {
					return "", 0, &PipelineError{Offset: i, Msg: "unterminated quoted option value"}
				}
				i += end + 1
			case '{':
				depth++
			case '}':
				depth--
				if depth == 0 {
					return s[1:i], i + 1, nil
				}
			}
		}
		return "", 0, &PipelineError{Msg: "unterminated '{' in option value"}
	}
	i := 0
	for i < len(s) && !isSpace(s[i]) {
		i++
	}
	return s[:i], i, nil
}

// quoteValue writes a value so that scanValue reads it back.
func quoteValue(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r{}\"'(),") {
		return v
	}
	if !strings.Contains(v, `"`) {
		return `"` + v + `"`
	}
	return "'" + v + "'"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameChar(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// NewSpec looks up a pass and sets its options from args, the others
// keeping their defaults. Errors name the pass and suggest the closest pass
// or option name; they are *PipelineError values whose offsets come from
// args.
func NewSpec(name string, args []OptionArg) (PassSpec, error) {
	info := Lookup(name)
	if info == nil {
		msg := fmt.Sprintf("'%s' does not refer to a registered pass", name)
		if s := Suggest(name, Names()); s != "" {
			msg += fmt.Sprintf(", did you mean '%s'?", s)
		}
		return PassSpec{}, &PipelineError{Msg: msg}
	}
	spec := PassSpec{Info: info, Options: info.newOptions()}
	seen := map[string]bool{}
	for _, a := range args {
		o := spec.Options.Lookup(a.Key)
		if o == nil {
			return PassSpec{}, &PipelineError{Offset: a.KeyOff, Msg: unknownOption(spec, a.Key)}
		}
		if seen[a.Key] {
			return PassSpec{}, &PipelineError{Offset: a.KeyOff, Msg: fmt.Sprintf("option '%s' of pass '%s' is given twice", a.Key, name)}
		}
		seen[a.Key] = true
		v, off := a.Value, a.ValOff
		if !a.HasValue {
			if o.Kind != BoolOption {
				return PassSpec{}, &PipelineError{Offset: a.KeyOff, Msg: fmt.Sprintf("option '%s' of pass '%s' needs a value (%s=%s)", a.Key, name, a.Key, o.ValueHint())}
			}
			v, off = "true", a.KeyOff
		}
		if err := setOption(info, o, v); err != nil {
			return PassSpec{}, &PipelineError{Offset: off, Msg: err.Error()}
		}
	}
	return spec, nil
}

func unknownOption(spec PassSpec, key string) string {
	msg := fmt.Sprintf("pass '%s' has no option '%s'", spec.Info.Name, key)
	var names []string
	for _, o := range spec.Options.List() {
		names = append(names, o.Name)
	}
	switch {
	case len(names) == 0:
		return msg + " (it takes no options)"
	case Suggest(key, names) != "":
		return msg + fmt.Sprintf(", did you mean '%s'?", Suggest(key, names))
	}
	return msg + " (its options: " + strings.Join(names, ", ") + ")"
}

// setOption sets an option from its text, or says in the one format of
// every option what was expected: `invalid value 'x' for option 'o' of
// pass 'p' (expected ...)`, and for an enumeration the closest value.
func setOption(info *Info, o *Option, v string) error {
	err := o.setText(v)
	if err == nil {
		return nil
	}
	msg := fmt.Sprintf("invalid value '%s' for option '%s' of pass '%s' (%v)", v, o.Name, info.Name, err)
	if o.Kind == EnumOption {
		if s := Suggest(v, o.Values); s != "" {
			msg += fmt.Sprintf(", did you mean '%s'?", s)
		}
	}
	return fmt.Errorf("%s", msg)
}

// sortedOptions lists a spec's options alphabetically, the order in which
// MLIR prints them.
func sortedOptions(v *OptionValues) []*Option {
	opts := slices.Clone(v.List())
	sort.SliceStable(opts, func(a, b int) bool { return opts[a].Name < opts[b].Name })
	return opts
}
