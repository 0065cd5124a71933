package optmain

import "strings"

// splitMarker separates the chunks of a file under --split-input-file; a
// line that starts with it (after indentation) is a separator, and the rest
// of that line is ignored, as in mlir-opt.
const splitMarker = "// -----"

// chunk is a piece of the input and the number of lines before it, so that
// locations keep the original file's line numbers.
type chunk struct {
	text       string
	lineOffset int
}

// splitInput cuts src at lines that start with marker.
func splitInput(src, marker string) []chunk {
	var chunks []chunk
	start, startLine, line := 0, 0, 0
	for pos := 0; pos < len(src); line++ {
		end := strings.IndexByte(src[pos:], '\n')
		next := len(src)
		if end >= 0 {
			next = pos + end + 1
		}
		if strings.HasPrefix(strings.TrimLeft(src[pos:next], " \t"), marker) {
			chunks = append(chunks, chunk{src[start:pos], startLine})
			start, startLine = next, line+1
		}
		pos = next
	}
	return append(chunks, chunk{src[start:], startLine})
}
