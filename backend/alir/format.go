package alir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/otir-dev/otir/internal/outfile"
)

// Format is a program file format.
type Format uint8

const (
	FormatAuto         Format = iota // detect from content (and name)
	FormatJSON                       // ALIR JSON, plain or gzip: reads spec 2, 3 and 4, writes spec 2
	FormatBytecode                   // ALIR v2 int32 bytecode
	FormatDAIS                       // DAIS v1 binary
	FormatDAISOriginal               // original headerless DAIS binary
	FormatJSONV4                     // ALIR JSON, plain or gzip: reads spec 2, 3 and 4, writes spec 4
	FormatBytecodeV4                 // ALIR spec 3/4 byte-level bytecode ("ALIR" magic); writes spec 4
)

var formatNames = [...]string{"auto", "json", "alir-bytecode", "dais-v1", "dais-original", "alir-v4-json", "alir-v4-bytecode"}

// wantsV4 reports whether a writer that picks the spec version by itself
// writes p as spec 4: p was read from spec 3 or 4, or uses a sum or a
// relative quantize shift.
func wantsV4(p *Program) bool { return p.Dialect == ALIR && (p.Spec >= 3 || p.NeedsV4()) }

// IsJSON reports whether f is one of the JSON formats.
func (f Format) IsJSON() bool { return f == FormatJSON || f == FormatJSONV4 }

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// FormatNames lists the names ParseFormat accepts.
func FormatNames() []string { return append([]string(nil), formatNames[:]...) }

// ParseFormat returns the format called name (see FormatNames).
func ParseFormat(name string) (Format, error) {
	for i, n := range formatNames {
		if strings.EqualFold(name, n) {
			return Format(i), nil
		}
	}
	return 0, fmt.Errorf("unknown format %q (want one of %s)", name, strings.Join(formatNames[:], ", "))
}

// Decode reads a program in format f. With FormatAuto it detects the
// format: JSON by a leading '{' or the gzip magic bytes, and among the
// binary formats the only one whose layout the data matches (ALIR bytecode
// and DAIS v1 carry a version word; the headerless original DAIS needs an
// explicit format when the data also matches another layout).
func Decode(data []byte, f Format) (*Program, Format, error) {
	switch f {
	case FormatJSON, FormatJSONV4:
		p, err := DecodeJSON(data)
		return p, jsonFormat(p, f), err
	case FormatBytecodeV4:
		p, err := DecodeBytecodeV4(data)
		return p, f, err
	case FormatBytecode:
		p, err := DecodeBytecode(data)
		return p, f, err
	case FormatDAIS:
		p, err := DecodeDAIS(data)
		return p, f, err
	case FormatDAISOriginal:
		p, err := DecodeDAISOriginal(data)
		return p, f, err
	case FormatAuto:
	default:
		return nil, f, fmt.Errorf("unknown format %v", f)
	}
	if isGzip(data) || bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("{")) {
		p, err := DecodeJSON(data)
		return p, jsonFormat(p, FormatJSON), err
	}
	if IsBytecodeV4(data) {
		p, err := DecodeBytecodeV4(data)
		return p, FormatBytecodeV4, err
	}
	if len(data) == 0 {
		return nil, f, errors.New("empty program file")
	}
	type try struct {
		f   Format
		p   *Program
		err error
	}
	var tries []try
	var ok []try
	for _, g := range []Format{FormatBytecode, FormatDAIS, FormatDAISOriginal} {
		p, _, err := Decode(data, g)
		tries = append(tries, try{g, p, err})
		if err == nil {
			ok = append(ok, try{g, p, nil})
		}
	}
	switch len(ok) {
	case 1:
		return ok[0].p, ok[0].f, nil
	case 0:
		// Report against the format the version word points to.
		w0 := int32(-1)
		if len(data) >= 4 {
			w0 = int32(uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24)
		}
		pick := tries[2]
		if w0 == SpecVersion {
			pick = tries[0]
		} else if w0 == 1 {
			pick = tries[1]
		}
		return nil, f, fmt.Errorf("not a program in any known format; as %v: %w", pick.f, pick.err)
	}
	names := make([]string, len(ok))
	for i, t := range ok {
		names[i] = t.f.String()
	}
	return nil, f, fmt.Errorf("ambiguous binary program: it reads as %s; give the format explicitly", strings.Join(names, " and "))
}

// jsonFormat names the JSON format of the version p was read in (f if p is
// nil).
func jsonFormat(p *Program, f Format) Format {
	switch {
	case p == nil:
		return f
	case p.Spec >= 3:
		return FormatJSONV4
	}
	return FormatJSON
}

// Encode writes p in format f (FormatAuto: JSON for ALIR programs, spec 4
// if wantsV4, DAIS v1 for DAIS programs). JSON is not compressed; see
// WriteFile.
func Encode(p *Program, f Format) ([]byte, error) {
	switch f {
	case FormatAuto:
		if p.Dialect == DAIS {
			return EncodeDAIS(p)
		}
		if wantsV4(p) {
			return EncodeJSONV4(p)
		}
		return EncodeJSON(p)
	case FormatJSONV4:
		return EncodeJSONV4(p)
	case FormatBytecodeV4:
		return EncodeBytecodeV4(p)
	case FormatJSON:
		return EncodeJSON(p)
	case FormatBytecode:
		return EncodeBytecode(p)
	case FormatDAIS:
		return EncodeDAIS(p)
	case FormatDAISOriginal:
		return EncodeDAISOriginal(p)
	}
	return nil, fmt.Errorf("unknown format %v", f)
}

// ReadFile reads the program in file path; see Decode. Errors name the
// file.
func ReadFile(path string, f Format) (*Program, Format, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, f, err
	}
	p, g, err := Decode(data, f)
	if err != nil {
		return nil, g, fmt.Errorf("%s: %w", path, err)
	}
	return p, g, nil
}

// WriteFile writes p to path in format f. With FormatAuto a name ending in
// .json or .json.gz selects JSON, anything else the binary format of p's
// dialect (ALIR bytecode or DAIS v1); an ALIR program is written as spec 4
// if it was read from spec 3 or 4 or needs it (sums, relative quantize
// shifts), else as spec 2. JSON is gzip-compressed when the name ends in
// .gz.
func WriteFile(path string, p *Program, f Format) error {
	lower := strings.ToLower(path)
	gz := strings.HasSuffix(lower, ".gz")
	if f == FormatAuto {
		switch {
		case (strings.HasSuffix(lower, ".json") || strings.HasSuffix(lower, ".json.gz")) && wantsV4(p):
			f = FormatJSONV4
		case strings.HasSuffix(lower, ".json") || strings.HasSuffix(lower, ".json.gz"):
			f = FormatJSON
		case p.Dialect == DAIS:
			f = FormatDAIS
		case wantsV4(p):
			f = FormatBytecodeV4
		default:
			f = FormatBytecode
		}
	}
	data, err := Encode(p, f)
	if err != nil {
		return err
	}
	if f.IsJSON() && gz {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		if _, err := zw.Write(data); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		data = b.Bytes()
	}
	return outfile.WriteFile(path, data)
}
