package alir

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Fuzz targets for the loaders. Whatever the bytes, a loader returns a
// valid program or an error and never panics; a program it accepts can be
// described (Info), compiles, runs like the exact evaluator and survives
// writing and reading back.
// Seed corpora are in testdata/fuzz/<target>; run for example
//
//	go test -run '^$' -fuzz FuzzDecodeBytecode -fuzztime 60s ./backend/alir

// checkLoaded runs the checks on a program a loader accepted.
func checkLoaded(t *testing.T, p *Program, enc func(*Program) ([]byte, error), dec func([]byte) (*Program, error)) {
	if err := p.Validate(); err != nil {
		t.Fatalf("loader returned an invalid program: %v", err)
	}
	// otir-run info and report describe an accepted program without
	// compiling it: whatever it holds, that never panics.
	_, _ = p.Info()
	m, err := Compile(p)
	if errors.Is(err, ErrTooWide) {
		// A valid program whose exact values outgrow the interpreter's
		// bound (chains of large shifts): the exact evaluator refuses it
		// too.
		if _, werr := RunExact(p, nil, 0); !errors.Is(werr, ErrTooWide) {
			t.Fatalf("compile: %v, but RunExact: %v", err, werr)
		}
		return
	}
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if len(p.Ops) > 2000 {
		return
	}
	r := rand.New(rand.NewPCG(1, 1))
	in := randomInputValues(r, p.NumInputs(), 3)
	got, gerr := m.Run(in, 3)
	want, werr := RunExact(p, in, 3)
	if (gerr == nil) != (werr == nil) || (gerr == nil && sameFloats(got, want) >= 0) {
		t.Fatalf("fast and exact evaluation differ: %v / %v", gerr, werr)
	}
	data, err := enc(p)
	if err != nil {
		return // e.g. a DAIS program with no ALIR form
	}
	q, err := dec(data)
	if err != nil {
		t.Fatalf("written program does not read back: %v", err)
	}
	again, _ := RunExact(q, in, 3)
	if werr == nil && sameFloats(again, want) >= 0 {
		t.Fatalf("written program behaves differently")
	}
}

// seedPrograms returns small programs using most opcodes of d.
func seedPrograms(d Dialect) []*Program {
	r := rand.New(rand.NewPCG(11, uint64(d)))
	var ps []*Program
	for range 4 {
		ps = append(ps, randomProgram(r, d, 2, 12))
	}
	return ps
}

// seedProgramsV4 returns small ALIR programs with sums and relative
// quantize shifts.
func seedProgramsV4() []*Program {
	r := rand.New(rand.NewPCG(12, 4))
	var ps []*Program
	for range 4 {
		ps = append(ps, randomProgramV4(r, 2, 12))
	}
	return ps
}

func addSeeds(f *testing.F, d Dialect, enc func(*Program) ([]byte, error), files ...string) {
	addSeedsOf(f, seedPrograms(d), enc, files...)
}

func addSeedsOf(f *testing.F, ps []*Program, enc func(*Program) ([]byte, error), files ...string) {
	for _, p := range ps {
		if data, err := enc(p); err == nil {
			f.Add(data)
		}
	}
	for _, name := range files {
		if data, err := os.ReadFile(filepath.Join(conformanceDir, name)); err == nil {
			f.Add(data)
		}
	}
}

func FuzzDecodeJSON(f *testing.F) {
	addSeeds(f, ALIR, EncodeJSON, "alir-v2-mixed/model.json.gz")
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeJSON(data); err == nil {
			checkLoaded(t, p, EncodeJSON, DecodeJSON)
		}
	})
}

func FuzzDecodeJSONV4(f *testing.F) {
	addSeedsOf(f, seedProgramsV4(), EncodeJSONV4, "alkaid-mlp/model-v4.json.gz")
	f.Add([]byte(`{"model":[[1,1],[0],[1],[0],[false],[[[],-1,[0],[-8.0,7.0,1.0],0,0],[[0,0],11,[1,2,0,-1],[-64.0,63.0,1.0],0,0]],-1,-1,null],"meta":"ALIRModel","spec_version":4}`))
	f.Add([]byte(`{"model":[[1,1],[0],[1],[0],[false],[[[],-1,[0],[-8.0,7.0,1.0],0,0],[[0],3,[],[-8.0,7.0,1.0],0,0]],-1,-1],"meta":"ALIRModel","spec_version":3}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeJSON(data); err == nil {
			checkLoaded(t, p, EncodeJSONV4, DecodeJSON)
		}
	})
}

func FuzzDecodeBytecodeV4(f *testing.F) {
	addSeedsOf(f, seedProgramsV4(), EncodeBytecodeV4)
	addSeeds(f, ALIR, EncodeBytecodeV4)
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeBytecodeV4(data); err == nil {
			checkLoaded(t, p, EncodeBytecodeV4, DecodeBytecodeV4)
		}
	})
}

func FuzzDecodeBytecode(f *testing.F) {
	addSeeds(f, ALIR, EncodeBytecode)
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeBytecode(data); err == nil {
			checkLoaded(t, p, EncodeBytecode, DecodeBytecode)
		}
	})
}

func FuzzDecodeDAIS(f *testing.F) {
	addSeeds(f, DAIS, EncodeDAIS, "dais-v1-example/model.bin")
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeDAIS(data); err == nil {
			checkLoaded(t, p, EncodeDAIS, DecodeDAIS)
		}
	})
}

func FuzzDecodeDAISOriginal(f *testing.F) {
	for _, p := range seedPrograms(DAIS) {
		if data, err := EncodeDAISOriginal(forFormat(p, false)); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if p, err := DecodeDAISOriginal(data); err == nil {
			checkLoaded(t, p, EncodeDAISOriginal, DecodeDAISOriginal)
		}
	})
}

// FuzzDecodeAuto exercises format detection.
func FuzzDecodeAuto(f *testing.F) {
	addSeeds(f, ALIR, EncodeBytecode)
	addSeeds(f, DAIS, EncodeDAIS)
	addSeedsOf(f, seedProgramsV4(), EncodeBytecodeV4)
	f.Add([]byte(`{"meta":"ALIRModel","spec_version":2,"model":[[0,0],[],[],[],[],[],-1,-1]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, format, err := Decode(data, FormatAuto)
		if err != nil {
			return
		}
		enc := func(p *Program) ([]byte, error) { return Encode(p, format) }
		dec := func(b []byte) (*Program, error) { q, _, err := Decode(b, format); return q, err }
		checkLoaded(t, p, enc, dec)
	})
}

// TestWriteFuzzCorpus regenerates testdata/fuzz from the seed programs
// when ALIR_WRITE_FUZZ_CORPUS=1.
func TestWriteFuzzCorpus(t *testing.T) {
	if os.Getenv("ALIR_WRITE_FUZZ_CORPUS") != "1" {
		t.Skip("set ALIR_WRITE_FUZZ_CORPUS=1 to rewrite testdata/fuzz")
	}
	write := func(target string, seeds [][]byte) {
		dir := filepath.Join("testdata", "fuzz", target)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for i, s := range seeds {
			body := "go test fuzz v1\n[]byte(" + strconv.Quote(string(s)) + ")\n"
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%d", i)), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	encodeAll := func(d Dialect, enc func(*Program) ([]byte, error), tables bool) [][]byte {
		var out [][]byte
		for _, p := range seedPrograms(d) {
			if data, err := enc(forFormat(p, tables)); err == nil {
				out = append(out, data)
			}
		}
		return out
	}
	write("FuzzDecodeJSON", encodeAll(ALIR, EncodeJSON, true))
	encodeV4 := func(enc func(*Program) ([]byte, error)) [][]byte {
		var out [][]byte
		for _, p := range seedProgramsV4() {
			if data, err := enc(p); err == nil {
				out = append(out, data)
			}
		}
		return out
	}
	write("FuzzDecodeJSONV4", encodeV4(EncodeJSONV4))
	write("FuzzDecodeBytecodeV4", encodeV4(EncodeBytecodeV4))
	write("FuzzDecodeBytecode", encodeAll(ALIR, EncodeBytecode, true))
	write("FuzzDecodeDAIS", encodeAll(DAIS, EncodeDAIS, true))
	write("FuzzDecodeDAISOriginal", encodeAll(DAIS, EncodeDAISOriginal, false))
	write("FuzzDecodeAuto", append(encodeAll(ALIR, EncodeBytecode, true), encodeAll(DAIS, EncodeDAISOriginal, false)...))
}

// FuzzInterpreter checks the block interpreter against the exact evaluator
// on random programs drawn from the fuzzer's seeds.
func FuzzInterpreter(f *testing.F) {
	f.Add(uint64(1), uint8(20), uint8(0))
	f.Add(uint64(2), uint8(60), uint8(1))
	f.Add(uint64(3), uint8(40), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, nOps uint8, dialect uint8) {
		r := rand.New(rand.NewPCG(seed, uint64(nOps)))
		d := Dialect(dialect % 3 % 2)
		nIn := r.IntN(4)
		p := randomProgram(r, d, nIn, 1+int(nOps))
		if dialect%3 == 2 {
			p = randomProgramV4(r, nIn, 1+int(nOps))
		}
		m, err := Compile(p)
		if errors.Is(err, ErrTooWide) {
			return // see checkLoaded
		}
		if err != nil {
			t.Fatal(err)
		}
		n := 1 + r.IntN(2*blockSize)
		in := randomInputValues(r, nIn, n)
		want, werr := RunExact(p, in, n)
		m.Workers = 2
		got, gerr := m.Run(in, n)
		if (werr == nil) != (gerr == nil) || (werr == nil && sameFloats(got, want) >= 0) {
			t.Fatalf("fast and exact evaluation differ: %v / %v", gerr, werr)
		}
	})
}
