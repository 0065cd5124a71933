package daisopt

import (
	"strings"
	"testing"

	"github.com/otir-dev/otir/lower/dais"
	"github.com/otir-dev/otir/parse"
)

// A malformed program is reported (as ToALIR's diagnostic), never a panic,
// and left as it was.
func TestMalformedProgramsAreReported(t *testing.T) {
	const head = `"dais.program"() ({` + "\n"
	const tail = "\n" + `}) {adder_size = -1, carry_size = -1, inp_shifts = array<i64: 0>, sym_name = "bad"} : () -> ()`
	const x = `%x = "dais.input"() {index = 0} : () -> !dais.q<-8, 7, 1>` + "\n"
	const out = `"dais.output"(%x) {negs = array<i64: 0>, outputs = array<i64: 0>, shifts = array<i64: 0>} : (!dais.q<-8, 7, 1>) -> ()`
	for _, c := range []struct{ name, body, want string }{
		{"no output", x, "must end with"},
		{"missing attribute", x + `%y = "dais.add"(%x, %x) : (!dais.q<-8, 7, 1>, !dais.q<-8, 7, 1>) -> !dais.q<-16, 14, 1>` + "\n" + out, "requires attribute 'shift'"},
		{"bad table index", x + `%y = "dais.lookup"(%x) {table = 3} : (!dais.q<-8, 7, 1>) -> !dais.q<-16, 14, 1>` + "\n" + out, "lookup table 3 out of range"},
		{"foreign op", x + `%c = otir.constant 1 : index` + "\n" + out, "is not a slot operation"},
		{"output not last", out + "\n" + x, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, ps := range passFuncs {
				m, err := parse.Parse("bad.otir", []byte(head+c.body+tail), parse.Options{})
				if err != nil {
					t.Skipf("does not parse: %v", err)
				}
				before := text(m)
				_, err = ps.run(dais.Programs(m)[0])
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%s: error %v, want one containing %q", ps.name, err, c.want)
				}
				if text(m) != before {
					t.Errorf("%s: changed a malformed program", ps.name)
				}
			}
		})
	}
}

// A module without dais programs, and an empty program, are fine.
func TestEmptyPrograms(t *testing.T) {
	m, err := parse.Parse("empty.otir", []byte(`"dais.program"() ({
  "dais.output"() {negs = array<i64>, outputs = array<i64>, shifts = array<i64>} : () -> ()
}) {adder_size = -1, carry_size = -1, inp_shifts = array<i64>, sym_name = "empty"} : () -> ()`), parse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ps := range passFuncs {
		if _, err := ps.run(dais.Programs(m)[0]); err != nil {
			t.Errorf("%s: %v", ps.name, err)
		}
	}
}
