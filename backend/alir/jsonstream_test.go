package alir

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// jsonDocuments is every ALIR JSON document at hand: the conformance
// files, the JSON inputs of tests/, the fuzz corpora of the JSON decoders
// and random programs of every opcode, spec 2 and 4.
func jsonDocuments(t testing.TB) [][]byte {
	var docs [][]byte
	var files []string
	for _, pat := range []string{conformanceDir + "/*/*.json*", "../../tests/*/Inputs/*.json", "../../tests/*/Inputs/*/*.json"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, data)
	}
	for _, target := range []string{"FuzzDecodeJSON", "FuzzDecodeJSONV4", "FuzzDecodeAuto", "FuzzJSONStreamEquivalent"} {
		m, _ := filepath.Glob(filepath.Join("testdata/fuzz", target, "*"))
		for _, f := range m {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			if len(lines) < 2 || !strings.HasPrefix(lines[1], "[]byte(") {
				continue
			}
			s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
			if err == nil {
				docs = append(docs, []byte(s))
			}
		}
	}
	for _, p := range seedPrograms(ALIR) {
		if data, err := EncodeJSON(p); err == nil {
			docs = append(docs, data)
		}
	}
	for _, p := range seedProgramsV4() {
		if data, err := EncodeJSONV4(p); err == nil {
			docs = append(docs, data)
		}
	}
	return docs
}

// mutants returns n damaged copies of doc: bytes replaced, inserted or
// removed, the text cut.
func mutants(r *rand.Rand, doc []byte, n int) [][]byte {
	const pool = "x]}[{\",:-.eE+0129n\\ \t\nu"
	var out [][]byte
	for range n {
		d := bytes.Clone(doc)
		if len(d) == 0 {
			break
		}
		for range 1 + r.IntN(2) {
			i := r.IntN(len(d))
			switch r.IntN(4) {
			case 0:
				d[i] = pool[r.IntN(len(pool))]
			case 1:
				d = append(d[:i], append([]byte{pool[r.IntN(len(pool))]}, d[i:]...)...)
			case 2:
				d = append(d[:i], d[i+1:]...)
			default:
				d = d[:i]
			}
			if len(d) == 0 {
				break
			}
		}
		out = append(out, d)
	}
	return out
}

// sameDecoding reports how DecodeJSON and the old decoder differ on data:
// "" when both give the same program, or both an error with the same
// message and place.
func sameDecoding(data []byte) string {
	p, err := DecodeJSON(data)
	q, oerr := oldDecodeJSON(data)
	switch {
	case (err == nil) != (oerr == nil):
		return "new: " + errText(err) + "; old: " + errText(oerr)
	case err == nil && !reflect.DeepEqual(p, q):
		return "different programs"
	case err != nil && err.Error() != oerr.Error() && !knownDifference(oerr):
		return "new: " + errText(err) + "; old: " + errText(oerr)
	case err != nil && jsonPlace(err) != jsonPlace(oerr) && jsonPlace(oerr) != [2]int{}:
		return "new: " + errText(err) + " at " + strconv.Itoa(jsonPlace(err)[0]) + ":" + strconv.Itoa(jsonPlace(err)[1]) + "; old: at " + strconv.Itoa(jsonPlace(oerr)[0]) + ":" + strconv.Itoa(jsonPlace(oerr)[1])
	}
	return ""
}

// knownDifference: the old decoder's message for a document that is not an
// object named an anonymous Go struct type; the new one names the
// document.
func knownDifference(old error) bool {
	return strings.Contains(old.Error(), "into Go value of type struct")
}

func errText(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}

func jsonPlace(err error) [2]int {
	var je *JSONError
	if errors.As(err, &je) {
		return [2]int{je.Line, je.Col}
	}
	return [2]int{}
}

// TestJSONStreamEquivalent: the streaming decoder reads every ALIR JSON
// document at hand, and thousands of damaged copies of them, plain and
// compressed, as the decoder it replaced did: the same program, or the
// same error at the same place.
func TestJSONStreamEquivalent(t *testing.T) {
	r := rand.New(rand.NewPCG(26, 3))
	docs := jsonDocuments(t)
	if len(docs) < 20 {
		t.Fatalf("only %d documents found", len(docs))
	}
	n := 0
	for _, doc := range docs {
		plain := doc
		if isGzip(doc) {
			zr, err := gzip.NewReader(bytes.NewReader(doc))
			if err == nil {
				plain, err = io.ReadAll(zr)
			}
			if err != nil {
				plain = nil // a damaged stream of the fuzz corpus
			}
		}
		cases := append([][]byte{doc, plain, gz(plain)}, mutants(r, plain, 8)...)
		if len(plain) < 4096 {
			cases = append(cases, mutants(r, plain, 200)...)
		}
		for _, c := range cases {
			n++
			if d := sameDecoding(c); d != "" {
				t.Errorf("%s\n%.300q", d, c)
			}
		}
	}
	t.Logf("%d documents, %d decodings compared", len(docs), n)
}

func gz(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	zw.Close()
	return b.Bytes()
}

// FuzzJSONStreamEquivalent: whatever the bytes, the streaming decoder and
// the old one agree (sameDecoding).
func FuzzJSONStreamEquivalent(f *testing.F) {
	for _, doc := range jsonDocuments(f) {
		if len(doc) < 8192 {
			f.Add(doc)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if d := sameDecoding(data); d != "" {
			t.Fatal(d)
		}
	})
}

// TestJSONOpLimit: a document of more than MaxOps operations is refused
// while the first pass counts them, at the first operation beyond the
// limit, plain or compressed (a 681 KB .json.gz of 234 MB of op records
// takes 0.7 s and 8 MB this way: BENCHMARKS.md).
func TestJSONOpLimit(t *testing.T) {
	defer func(n int) { MaxOps = n }(MaxOps)
	MaxOps = 1000
	rec := "[0,-1,-1,0,[-128.0,127.0,1.0],0.0,0.0]"
	doc := `{"model":[[1,1],[0],[0],[0],[false],` + "\n[" + strings.Repeat(rec+",", 4999) + rec + `],-1,-1],"meta":"ALIRModel","spec_version":2}`
	for _, c := range []struct {
		data      []byte
		line, col int
	}{
		{[]byte(doc), 2, 2 + 1000*(len(rec)+1)},
		{gz([]byte(doc)), 0, 0},
	} {
		_, err := DecodeJSON(c.data)
		var je *JSONError
		if !errors.Is(err, ErrOpLimit) || err.Error() != "json: model[5] holds more operations than the limit of 1000" || !errors.As(err, &je) {
			t.Fatalf("got %v", err)
		}
		if je.Line != c.line || je.Col != c.col || je.Offset != int64(strings.Index(doc, "\n"))+2+1000*int64(len(rec)+1) {
			t.Errorf("at %d:%d (offset %d), want %d:%d", je.Line, je.Col, je.Offset, c.line, c.col)
		}
	}
	MaxOps = 5000
	if _, err := DecodeJSON([]byte(doc)); err != nil {
		t.Errorf("5000 ops within a limit of 5000: %v", err)
	}
}
