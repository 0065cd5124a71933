package ir

import (
	"fmt"
	"strings"
	"sync"
)

// Types that dialects define outside ir (MLIR's dialect types), such as the
// dais dialect's !dais.q<min, max, step>: the type embeds DialectType, is
// interned with InternType, and is read by ParseType through the parser its
// dialect registers with RegisterType.

// DialectType is embedded by a dialect's own types so that they satisfy Type.
type DialectType struct{}

func (DialectType) isType()      {}
func (DialectType) dialectType() {}

// IsDialectType reports whether t is a dialect's own type (embeds DialectType).
func IsDialectType(t Type) bool {
	_, ok := t.(interface{ dialectType() })
	return ok
}

// InternType returns the one type of text key, made by mk the first time:
// dialect types are interned like the others, so == compares them.
func InternType(key string, mk func() Type) Type { return intern(key, mk) }

var (
	typeParsersMu sync.RWMutex
	typeParsers   = map[string]func(body string) (Type, error){}
)

// RegisterType makes ParseType read "!name<body>" with parse(body) (name is
// "dais.q", say). It panics on a duplicate name (a start-up error).
func RegisterType(name string, parse func(body string) (Type, error)) {
	typeParsersMu.Lock()
	defer typeParsersMu.Unlock()
	if _, dup := typeParsers[name]; dup {
		panic("ir: duplicate type " + name)
	}
	typeParsers[name] = parse
}

// parseDialectType reads s as a registered dialect type; ok is false when no
// dialect registered its name.
func parseDialectType(s string) (t Type, ok bool, err error) {
	name, body, found := strings.Cut(strings.TrimPrefix(s, "!"), "<")
	if !found || !strings.HasPrefix(s, "!") || !strings.HasSuffix(body, ">") {
		return nil, false, nil
	}
	typeParsersMu.RLock()
	parse := typeParsers[name]
	typeParsersMu.RUnlock()
	if parse == nil {
		return nil, false, nil
	}
	t, err = parse(body[:len(body)-1])
	if err != nil {
		return nil, true, err
	}
	if t == nil {
		return nil, true, fmt.Errorf("type '%s' parsed to nothing", s)
	}
	return t, true, nil
}
