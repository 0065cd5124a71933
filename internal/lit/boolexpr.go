package lit

import (
	"fmt"
	"regexp"
	"strings"
)

// EvalBool evaluates a REQUIRES/UNSUPPORTED/XFAIL expression the way LLVM
// lit's BooleanExpression does:
//
//	expr     := or
//	or       := and ('||' and)*
//	and      := not ('&&' not)*
//	not      := '!' not | '(' or ')' | match
//	match    := word, where a word is made of [-+=._a-zA-Z0-9] and {{regex}}
//
// "true" is always true; any other word is true when it names a feature in
// features. A word with {{regex}} parts is true when some feature matches
// it as a whole (the literal parts matched literally).
func EvalBool(expr string, features map[string]bool) (bool, error) {
	toks, err := tokenizeBool(expr)
	if err != nil {
		return false, err
	}
	p := &boolParser{toks: toks, features: features, expr: expr}
	if len(toks) == 0 {
		return false, fmt.Errorf("%q: empty expression", expr)
	}
	v, err := p.or()
	if err != nil {
		return false, err
	}
	if p.pos != len(p.toks) {
		return false, fmt.Errorf("%q: unexpected %q", expr, p.toks[p.pos])
	}
	return v, nil
}

var boolTokenRE = regexp.MustCompile(`^(?:\s+|&&|\|\||!|\(|\)|(?:[-+=._a-zA-Z0-9]+|\{\{.*?\}\})+)`)

func tokenizeBool(s string) ([]string, error) {
	var toks []string
	for rest := s; rest != ""; {
		m := boolTokenRE.FindString(rest)
		if m == "" {
			return nil, fmt.Errorf("%q: unexpected character at %q", s, rest)
		}
		if strings.TrimSpace(m) != "" {
			toks = append(toks, m)
		}
		rest = rest[len(m):]
	}
	return toks, nil
}

type boolParser struct {
	toks     []string
	pos      int
	features map[string]bool
	expr     string
}

func (p *boolParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *boolParser) or() (bool, error) {
	v, err := p.and()
	if err != nil {
		return false, err
	}
	for p.peek() == "||" {
		p.pos++
		w, err := p.and()
		if err != nil {
			return false, err
		}
		v = v || w
	}
	return v, nil
}

func (p *boolParser) and() (bool, error) {
	v, err := p.not()
	if err != nil {
		return false, err
	}
	for p.peek() == "&&" {
		p.pos++
		w, err := p.not()
		if err != nil {
			return false, err
		}
		v = v && w
	}
	return v, nil
}

func (p *boolParser) not() (bool, error) {
	switch t := p.peek(); t {
	case "":
		return false, fmt.Errorf("%q: expression ends too early", p.expr)
	case "!":
		p.pos++
		v, err := p.not()
		return !v, err
	case "(":
		p.pos++
		v, err := p.or()
		if err != nil {
			return false, err
		}
		if p.peek() != ")" {
			return false, fmt.Errorf("%q: missing ')'", p.expr)
		}
		p.pos++
		return v, nil
	case ")", "&&", "||":
		return false, fmt.Errorf("%q: unexpected %q", p.expr, t)
	default:
		p.pos++
		return p.match(t)
	}
}

func (p *boolParser) match(word string) (bool, error) {
	if word == "true" {
		return true, nil
	}
	if !strings.Contains(word, "{{") {
		return p.features[word], nil
	}
	var re strings.Builder
	re.WriteString("^(?:")
	for rest := word; rest != ""; {
		i := strings.Index(rest, "{{")
		if i < 0 {
			re.WriteString(regexp.QuoteMeta(rest))
			break
		}
		re.WriteString(regexp.QuoteMeta(rest[:i]))
		j := strings.Index(rest[i:], "}}")
		re.WriteString("(?:" + rest[i+2:i+j] + ")")
		rest = rest[i+j+2:]
	}
	re.WriteString(")$")
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return false, fmt.Errorf("%q: bad regex in %q: %v", p.expr, word, err)
	}
	for f, on := range p.features {
		if on && rx.MatchString(f) {
			return true, nil
		}
	}
	return false, nil
}
