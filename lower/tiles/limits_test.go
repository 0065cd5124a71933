package tiles

import "testing"

// Every max-ops limit is reported by overMaxOps, in one format.
func TestOverMaxOps(t *testing.T) {
	for _, c := range []struct {
		subject, units string
		limit, per     int64
		want           string
	}{
		{"the program needs", "operations", 100, 1, "the program needs more than 100 operations (max-ops=100; raise it with lower-tiles{max-ops=N})"},
		{"its grid has", "workgroups", 100, 1, "its grid has more than 100 workgroups (max-ops=100; raise it with lower-tiles{max-ops=N})"},
		{"unrolling the kernel creates tiles of", "elements in all", 800, 8, "unrolling the kernel creates tiles of more than 800 elements in all (max-ops=100, 8 per operation; raise it with lower-tiles{max-ops=N})"},
	} {
		if got := overMaxOps(c.subject, c.limit, c.units, c.per, 100); got != c.want {
			t.Errorf("overMaxOps(%q) = %q, want %q", c.subject, got, c.want)
		}
	}
}
