package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/otir-dev/otir/backend/alir"
)

// TestMaxOps: a program of more operations than --max-ops is an input
// error naming the limit and the flag; a bad --max-ops is a usage error.
func TestMaxOps(t *testing.T) {
	defer func(n int) { alir.MaxOps = n }(alir.MaxOps)
	p := filepath.Join(hostileFiles(t), "p.json")
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"info", "--max-ops", "1", p}, 1, ": error: json: model[5] holds more operations than the limit of 1 (--max-ops raises it)\n"},
		{[]string{"info", "--max-ops", "0", p}, 2, "--max-ops must be at least 1, got 0"},
		{[]string{"info", "--max-ops", "1000", p}, 0, "operations"},
	} {
		var out, errb bytes.Buffer
		code := mainCode(append([]string{"otir-run"}, c.args...), strings.NewReader(""), &out, &errb)
		got := errb.String()
		if c.code == 0 {
			got = out.String()
		}
		if code != c.code || !strings.Contains(got, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d and %q", c.args, code, out.String(), errb.String(), c.code, c.want)
		}
	}
}
