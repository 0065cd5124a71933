package diag

import "strings"

// NormalizeNewlines turns the line breaks of old Mac files, a carriage
// return not followed by a newline, into newlines, so that comments end and
// lines count there as in mlir-opt. Offsets do not move (one byte for one);
// text without a lone carriage return is returned as is. Tools that show
// source lines in diagnostics normalize their copy the same way.
func NormalizeNewlines(text string) string {
	i := strings.IndexByte(text, '\r')
	for i >= 0 && i+1 < len(text) && text[i+1] == '\n' {
		j := strings.IndexByte(text[i+1:], '\r')
		if j < 0 {
			return text
		}
		i += 1 + j
	}
	if i < 0 {
		return text
	}
	b := []byte(text)
	for k := i; k < len(b); k++ {
		if b[k] == '\r' && (k+1 == len(b) || b[k+1] != '\n') {
			b[k] = '\n'
		}
	}
	return string(b)
}
