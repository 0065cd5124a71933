package parse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/diag"
)

// decodeString decodes a quoted string literal. It accepts Go's escapes (what
// the printer writes, via strconv.Quote) and MLIR's two-hex-digit escapes
// (\0A) where the two do not overlap.
func decodeString(lit string, pos lexer.Position) (string, error) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", errAt(pos, "expected '\"' in string literal")
	}
	body := lit[1 : len(lit)-1]
	if !strings.ContainsRune(body, '\\') {
		return body, nil
	}
	var sb strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			sb.WriteByte(c)
			continue
		}
		if i+1 >= len(body) {
			return "", badEscape(pos)
		}
		e := body[i+1]
		switch e {
		case 'a', 'b', 'f', 'n', 'r', 't', 'v', '\\', '\'', '"':
			sb.WriteByte(simpleEscape(e))
			i++
		case 'x', 'u', 'U':
			n := 2
			if e == 'u' {
				n = 4
			} else if e == 'U' {
				n = 8
			}
			if i+2+n > len(body) {
				return "", badEscape(pos)
			}
			v, err := strconv.ParseUint(body[i+2:i+2+n], 16, 32)
			if err != nil {
				return "", badEscape(pos)
			}
			if e == 'x' {
				sb.WriteByte(byte(v))
			} else {
				if !utf8.ValidRune(rune(v)) {
					return "", badEscape(pos)
				}
				sb.WriteRune(rune(v))
			}
			i += 1 + n
		default:
			if i+2 < len(body) && isHex(e) && isHex(body[i+2]) {
				v, _ := strconv.ParseUint(body[i+1:i+3], 16, 8)
				sb.WriteByte(byte(v))
				i += 2
				continue
			}
			return "", badEscape(pos)
		}
	}
	return sb.String(), nil
}

// simpleEscape is the byte a one-letter escape stands for.
func simpleEscape(e byte) byte {
	switch e {
	case 'a':
		return '\a'
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	}
	return e // \\ \' \"
}

func badEscape(pos lexer.Position) *diag.Diagnostic {
	return errAt(pos, "unknown escape in string literal")
}
