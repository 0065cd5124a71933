package main

import (
	"bytes"
	"strings"
	"testing"
)

// Flags mean one thing: a flag that holds one value may be given once, and
// a numeric flag rejects a value outside its range, naming the range. Both
// are usage errors (exit 2), found before any file is read.
func TestFlagsMeanOneThing(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"m.json", "--input", "x", "-o", "a", "-o", "b"}, ""}, // --output is repeatable (graphs)
		{[]string{"m.json", "--format", "json", "-f", "dais-v1"}, "for the --format option: may only occur zero or one times! (given as '--format json' and '-f dais-v1')"},
		{[]string{"k.otir", "--kernel=a", "--kernel=b"}, "for the --kernel option: may only occur zero or one times! (given as '--kernel=a' and '--kernel=b')"},
		{[]string{"m.json", "--exact", "--exact"}, "for the --exact option: may only occur zero or one times!"},
		{[]string{"convert", "m.json", "x.v", "--name", "a", "--name", "b"}, "for the --name option: may only occur zero or one times!"},
		{[]string{"report", "m.json", "-o", "a.html", "--output", "b.html"}, "for the --output option: may only occur zero or one times! (given as '-o a.html' and '--output b.html')"},
		{[]string{"bench", "m.json", "-j", "1", "-j", "2"}, "for the --workers option: may only occur zero or one times!"},
		{[]string{"m.json", "--input", "x", "-j", "-1"}, "-j must be between 0 and 4096 (0: all cores), got -1"},
		{[]string{"m.json", "--input", "x", "-j", "100000"}, "-j must be between 0 and 4096 (0: all cores), got 100000"},
		{[]string{"bench", "m.json", "--input", "x", "-j", "-3"}, "-j must be between 0 and 4096 (0: all cores), got -3"},
		{[]string{"bench", "m.json", "--input", "x", "--repeat", "0"}, "--repeat must be at least 1, got 0"},
		{[]string{"bench", "m.json", "--input", "x", "--min-time", "-1s"}, "--min-time must be at least 1ns, got -1s"},
		{[]string{"k.otir", "--max-steps", "0"}, "--max-steps must be at least 1, got 0"},
		{[]string{"k.otir", "--max-elements", "-5"}, "--max-elements must be at least 1, got -5"},
		{[]string{"info", "m.json", "--max-input-bytes", "0"}, "--max-input-bytes must be at least 1, got 0"},
		{[]string{"convert", "m.json", "x.v", "--latency-cutoff", "-1"}, "--latency-cutoff must be at least 0 (0: combinational), got -1"},
		{[]string{"convert", "m.json", "x.v", "--latency-cutoff", "NaN"}, "--latency-cutoff must be at least 0 (0: combinational), got NaN"},
		{[]string{"convert", "m.json", "x.v", "--latency-cutoff", "inf"}, "--latency-cutoff must be at least 0 (0: combinational), got +Inf"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errb bytes.Buffer
			code := mainCode(append([]string{"otir-run"}, tc.args...), strings.NewReader(""), &out, &errb)
			if tc.want == "" {
				if strings.Contains(errb.String(), "may only occur") {
					t.Errorf("a repeatable flag was refused: %s", errb.String())
				}
				return
			}
			if code != exitUsage || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), exitUsage, tc.want)
			}
		})
	}
}
