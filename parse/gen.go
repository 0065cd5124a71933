package parse

import (
	"bytes"
	"strconv"
)

// GenerateChain returns an OTIR module with one kernel whose body is a chain
// of about n operations on #private tiles and scalars: element-wise
// add/sub/mul/xor/and, comparisons feeding selects and scalar constants,
// using all three annotation forms (`: T`, `: T1, T2` on comparisons, whose
// i1 result the parser infers, and `: (T1, T2) -> T3`). Every value is used,
// so it also exercises name resolution. It is the input of the parser's
// benchmarks and of `mlir-opt` comparisons.
func GenerateChain(n int) []byte {
	const (
		T = "!otir.tile<16xi32, #private>"
		M = "!otir.tile<16xi1, #private>"
		G = "!otir.tile<16xi32, #global>"
	)
	var b bytes.Buffer
	b.Grow(n * 70)
	b.WriteString("module attributes {otir.typing_style = \"hls\"} {\n")
	b.WriteString("  otir.kernel @chain(%a: " + G + ", %out: " + G + ") attributes {grid = [1]} {\n")
	b.WriteString("    %x = otir.load %a : " + G + " -> " + T + "\n")
	b.WriteString("    %s = otir.constant 3 : i32\n")
	b.WriteString("    %v0 = otir.add %x, %x : " + T + "\n")
	prev := "%v0"
	count := 4
	for i := 1; count < n-2; i++ {
		v := "%v" + strconv.Itoa(i)
		b.WriteString("    ")
		switch i % 8 {
		case 0:
			b.WriteString(v + " = otir.add " + prev + ", %x : " + T)
		case 1:
			b.WriteString(v + " = otir.sub " + prev + ", %x : (" + T + ", " + T + ") -> " + T)
		case 2:
			b.WriteString(v + " = otir.mul " + prev + ", %s : (" + T + ", i32) -> " + T)
		case 3:
			b.WriteString(v + " = otir.xor " + prev + ", %x : " + T)
		case 4:
			b.WriteString("%m" + strconv.Itoa(i) + " = otir.cmp kind(slt) " + prev + ", %x : " + T + ", " + T + "\n    ")
			b.WriteString(v + " = otir.select %m" + strconv.Itoa(i) + ", " + prev + ", %x : (" + M + ", " + T + ", " + T + ") -> " + T)
			count++
		case 5:
			b.WriteString("%c" + strconv.Itoa(i) + " = otir.constant " + strconv.Itoa(i%1000) + " : i32\n    ")
			b.WriteString(v + " = otir.and " + prev + ", %c" + strconv.Itoa(i) + " : (" + T + ", i32) -> " + T)
			count++
		case 6:
			b.WriteString(v + " = otir.add " + prev + ", " + prev + " : " + T)
		case 7:
			b.WriteString(v + " = otir.sub %x, " + prev + " : " + T)
		}
		b.WriteByte('\n')
		prev = v
		count++
	}
	b.WriteString("    otir.store " + prev + ", %out : " + T + ", " + G + "\n")
	b.WriteString("    otir.return\n  }\n}\n")
	return b.Bytes()
}

// GenerateChainOneLine is GenerateChain(n) with the kernel's whole body on
// one line, the operations separated by single spaces: the input that
// defeats cutting a large body at its line starts (a parser corner of issue
// 15; `otir-gen chain -one-line`).
func GenerateChainOneLine(n int) []byte {
	src := GenerateChain(n)
	// The body runs from the third line to the line before the kernel's
	// closing "  }\n}\n", its terminator ("    otir.return\n") included.
	start := bytes.IndexByte(src, '\n') + 1
	start += bytes.IndexByte(src[start:], '\n') + 1
	end := len(src) - len("  }\n}\n")
	out := make([]byte, 0, len(src))
	out = append(out, src[:start]...)
	out = append(out, "   "...)
	for line := range bytes.Lines(src[start:end]) {
		out = append(out, ' ')
		out = append(out, bytes.TrimSpace(line)...)
	}
	out = append(out, '\n')
	return append(out, src[end:]...)
}

// GenerateEmptyKernels returns n empty kernels, one a line
// (`otir.kernel @k0() { otir.return }`), without a module wrapper: the
// input that measures what each kernel costs (a parser corner of issue 15;
// `otir-gen kernels`).
func GenerateEmptyKernels(n int) []byte {
	var b bytes.Buffer
	b.Grow(n * 40)
	for i := 0; i < n; i++ {
		b.WriteString("otir.kernel @k")
		b.WriteString(strconv.Itoa(i))
		b.WriteString("() { otir.return }\n")
	}
	return b.Bytes()
}
