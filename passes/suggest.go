package passes

import "github.com/otir-dev/otir/internal/textdist"

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a plausible typo: at most a third of the name's
// length (at least one edit) may change, and not all of it. Ties go to the
// earlier candidate.
func Suggest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := textdist.Levenshtein(name, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := max(1, (len(name)+1)/3)
	if bestDist < 0 || bestDist > limit || bestDist >= len(name) {
		return ""
	}
	return best
}
