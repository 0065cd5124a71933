package cliargs

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/urfave/cli/v2"
)

// RangeError is a numeric flag given a value outside its range: a usage
// error naming the range.
type RangeError struct {
	Flag     string // "-j", "--timeout"
	Value    string
	Min, Max string // "" when unbounded
	Note     string // what a special value means, "0: all cores"
}

func (e RangeError) Error() string {
	want := e.allowed()
	if e.Note != "" {
		want += " (" + e.Note + ")"
	}
	return fmt.Sprintf("%s must be %s, got %s", e.Flag, want, e.Value)
}

// allowed says what the range allows: "between 0 and 8", "at least 1".
func (e RangeError) allowed() string {
	switch {
	case e.Max == "":
		return "at least " + e.Min
	case e.Min == "":
		return "at most " + e.Max
	}
	return fmt.Sprintf("between %s and %s", e.Min, e.Max)
}

// withRange adds the range to a flag's usage, for --help.
func withRange[T cmp.Ordered](usage string, lo, hi T) string {
	return usage + " (" + RangeError{Min: bound(lo, false), Max: bound(hi, true)}.allowed() + ")"
}

// CheckRange fails with a RangeError when v is outside [lo, hi] (NaN is
// outside every range). flag is the name as users write it ("-j"); note
// says what a special value means ("" for nothing).
func CheckRange[T cmp.Ordered](flag string, v, lo, hi T, note string) error {
	if v >= lo && v <= hi {
		return nil
	}
	return RangeError{Flag: flag, Value: fmt.Sprint(v), Min: bound(lo, false), Max: bound(hi, true), Note: note}
}

// bound writes a range's end, "" for the largest or smallest value of its
// type (an open end).
func bound[T cmp.Ordered](v T, upper bool) string {
	switch x := any(v).(type) {
	case int:
		if upper && x == math.MaxInt || !upper && x == math.MinInt {
			return ""
		}
	case int64:
		if upper && x == math.MaxInt64 || !upper && x == math.MinInt64 {
			return ""
		}
	case float64:
		if upper && x >= math.MaxFloat64 || !upper && x <= -math.MaxFloat64 {
			return ""
		}
		return strconv.FormatFloat(x, 'f', -1, 64) // 1000000, not 1e+06
	}
	return fmt.Sprint(v)
}

// flagName is the name of f as users write it, for messages: its shortest
// name (-j rather than --workers).
func flagName(names []string) string {
	short := names[0]
	for _, n := range names {
		if len(n) < len(short) {
			short = n
		}
	}
	return dashed(short)
}

// IntIn makes f reject a value outside [lo, hi] (math.MaxInt: no upper
// bound) when it is given, and says so in its usage; note says what a
// special value means.
func IntIn(f *cli.IntFlag, lo, hi int, note string) *cli.IntFlag {
	f.Usage = withRange(f.Usage, lo, hi)
	f.Action = func(_ *cli.Context, v int) error { return CheckRange(flagName(f.Names()), v, lo, hi, note) }
	return f
}

// Int64In is IntIn for an int64 flag.
func Int64In(f *cli.Int64Flag, lo, hi int64, note string) *cli.Int64Flag {
	f.Usage = withRange(f.Usage, lo, hi)
	f.Action = func(_ *cli.Context, v int64) error { return CheckRange(flagName(f.Names()), v, lo, hi, note) }
	return f
}

// Float64In is IntIn for a float64 flag (NaN is always rejected;
// math.MaxFloat64: no upper bound).
func Float64In(f *cli.Float64Flag, lo, hi float64, note string) *cli.Float64Flag {
	f.Usage = withRange(f.Usage, lo, hi)
	f.Action = func(_ *cli.Context, v float64) error { return CheckRange(flagName(f.Names()), v, lo, hi, note) }
	return f
}

// DurationIn is IntIn for a duration flag.
func DurationIn(f *cli.DurationFlag, lo, hi time.Duration, note string) *cli.DurationFlag {
	r := RangeError{Flag: flagName(f.Names()), Min: lo.String(), Max: hi.String(), Note: note}
	if hi == math.MaxInt64 {
		r.Max = ""
	}
	f.Usage += " (" + r.allowed() + ")"
	f.Action = func(_ *cli.Context, v time.Duration) error {
		if v < lo || v > hi {
			r.Value = v.String()
			return r
		}
		return nil
	}
	return f
}
