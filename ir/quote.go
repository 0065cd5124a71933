package ir

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// QuoteString quotes s as MLIR reads it: printable UTF-8 as is, \" \\ \n
// and \t, and every other byte (control characters, invalid UTF-8) as
// MLIR's two-hex-digit escape \HH, so a string of any bytes prints as text
// that mlir-opt and the parser read back to the same bytes (Go's \xff and
// \a, which strconv.Quote writes, are errors in MLIR).
func QuoteString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError && n == 1 || !unicode.IsPrint(r):
			for _, c := range []byte(s[i : i+n]) {
				b.WriteByte('\\')
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&15])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	b.WriteByte('"')
	return b.String()
}

const hexDigits = "0123456789ABCDEF"
