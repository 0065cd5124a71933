package cliargs

import (
	"flag"
	"io"
	"math"
	"reflect"
	"testing"

	"github.com/urfave/cli/v2"
)

var testFlags = []cli.Flag{
	&cli.StringFlag{Name: "output", Aliases: []string{"o"}},
	&cli.StringSliceFlag{Name: "input", Aliases: []string{"i"}},
	&cli.BoolFlag{Name: "exact"},
}

func TestReorder(t *testing.T) {
	tests := []struct {
		args, want []string
		err        string
	}{
		{[]string{"p", "m", "-i", "x", "-o", "y"}, []string{"p", "-i", "x", "-o", "y", "--", "m"}, ""},
		{[]string{"p", "sub", "m", "--exact"}, []string{"p", "sub", "--exact", "--", "m"}, ""},
		{[]string{"p", "m", "--", "-o"}, []string{"p", "--", "m", "-o"}, ""},
		{[]string{"p", "--bogus", "m"}, []string{"p", "--bogus", "--", "m"}, ""}, // left to urfave/cli
		{[]string{"p", "-i", "a", "--input=b", "-i", "c"}, []string{"p", "-i", "a", "--input=b", "-i", "c"}, ""},
		{[]string{"p", "-o", "a", "m", "--output=b"}, nil, "for the --output option: may only occur zero or one times! (given as '-o a' and '--output=b')"},
		{[]string{"p", "--exact", "--exact=false"}, nil, "for the --exact option: may only occur zero or one times! (given as '--exact' and '--exact=false')"},
	}
	for _, tc := range tests {
		head := 1
		if len(tc.args) > 1 && tc.args[1] == "sub" {
			head = 2
		}
		got, err := Reorder(tc.args, head, testFlags)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("Reorder(%q): err %v, want %q", tc.args, err, tc.err)
		case tc.err == "" && (err != nil || !reflect.DeepEqual(got, tc.want)):
			t.Errorf("Reorder(%q) = %q, %v; want %q", tc.args, got, err, tc.want)
		}
	}
}

func TestCheckRange(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{CheckRange("-j", 3, 0, 8, ""), ""},
		{CheckRange("-j", -1, 0, 8, "0: all cores"), "-j must be between 0 and 8 (0: all cores), got -1"},
		{CheckRange("--max-steps", int64(0), 1, math.MaxInt64, ""), "--max-steps must be at least 1, got 0"},
		{CheckRange("--cutoff", math.NaN(), 0, math.MaxFloat64, ""), "--cutoff must be at least 0, got NaN"},
		{CheckRange("--cutoff", math.Inf(1), 0, math.MaxFloat64, ""), "--cutoff must be at least 0, got +Inf"},
		{CheckRange("--t", 2e6, 0, 1e6, ""), "--t must be between 0 and 1000000, got 2e+06"},
		{CheckRange("-n", 7, math.MinInt, 5, ""), "-n must be at most 5, got 7"},
	}
	for _, tc := range tests {
		got := ""
		if tc.err != nil {
			got = tc.err.Error()
		}
		if got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

type list []string

func (l *list) String() string     { return "" }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }
func (l *list) IsList() bool       { return true }

func TestOnceFlagSet(t *testing.T) {
	parse := func(args ...string) error {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var v bool
		var j int
		var l list
		fs.BoolVar(&v, "v", false, "")
		fs.Var(fs.Lookup("v").Value, "verbose", "")
		fs.IntVar(&j, "j", 0, "")
		fs.Var(&l, "D", "")
		repeated := OnceFlagSet(fs)
		return repeated(fs.Parse(args))
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-v", "-j", "2", "-D", "a", "-D", "b"}, ""},
		{[]string{"-j", "2", "-j=3"}, "for the -j option: may only occur zero or one times! (given as '2' and '3')"},
		{[]string{"-v", "--verbose"}, "for the -v option: may only occur zero or one times! (given as 'true' and 'true')"},
		{[]string{"-j", "x"}, `invalid value "x" for flag -j: parse error`},
	}
	for _, tc := range tests {
		err := parse(tc.args...)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.args, got, tc.want)
		}
	}
}

// A flag with a range says it in its usage (--help).
func TestRangeInUsage(t *testing.T) {
	j := IntIn(&cli.IntFlag{Name: "workers", Aliases: []string{"j"}, Usage: "goroutines"}, 0, 64, "0: all cores")
	if j.Usage != "goroutines (between 0 and 64)" {
		t.Errorf("usage %q", j.Usage)
	}
	if err := j.Action(nil, 65); err == nil || err.Error() != "-j must be between 0 and 64 (0: all cores), got 65" {
		t.Errorf("Action(65) = %v", err)
	}
	steps := Int64In(&cli.Int64Flag{Name: "max-steps", Usage: "steps"}, 1, math.MaxInt64, "")
	if steps.Usage != "steps (at least 1)" {
		t.Errorf("usage %q", steps.Usage)
	}
}
