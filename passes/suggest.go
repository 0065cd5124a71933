package passes

// Suggest returns the candidate closest to name by edit distance, or "" when
// none is close enough to be a plausible typo: at most a third of the name's
// length (at least one edit) may change, and not all of it. Ties go to the
// earlier candidate.
func Suggest(name string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := editDistance(name, c)
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

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
