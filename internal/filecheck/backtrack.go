package filecheck

// backtrackBudget bounds the work of one backtracking search, plus
// backtrackPerByte steps per byte of the text searched (a search linear in
// a long line stays within it). A search that exceeds it reports no match
// rather than running for an unbounded time.
const (
	backtrackBudget  = 2_000_000
	backtrackPerByte = 16
)

// backtrackDepth bounds the nesting of the matcher's calls (each element a
// path matches nests one level), so that no line can exhaust the stack; a
// search that needs more stops as one over budget.
const backtrackDepth = 100_000

// btState is one leftmost-longest backtracking search.
type btState struct {
	text     string
	caps     []int
	best     []int
	bestEnd  int
	steps    int
	budget   int
	depth    int
	overflow bool
}

// backtrackMatch finds the leftmost-longest match of tree in text, with
// back-references and word-boundary assertions. Among the paths reaching
// the longest end, the first one in greedy order provides the submatches.
func backtrackMatch(tree *reNode, nsub int, text string) []int {
	st := &btState{text: text, caps: make([]int, 2*(nsub+1)), budget: backtrackBudget + backtrackPerByte*len(text)}
	for start := 0; start <= len(text); start++ {
		for i := range st.caps {
			st.caps[i] = -1
		}
		st.bestEnd = -1
		st.m(tree, start, func(end int) bool {
			if end > st.bestEnd {
				st.bestEnd = end
				st.best = append(st.best[:0], st.caps...)
				st.best[0], st.best[1] = start, end
			}
			// The whole remaining text is the longest possible match.
			return end == len(text)
		})
		if st.overflow {
			return nil
		}
		if st.bestEnd >= 0 {
			return st.best
		}
	}
	return nil
}

func isWordByte(c byte) bool { return isAlpha(c) || isDigit(c) || c == '_' }

// m matches n at pos and calls k with each end position in greedy order; it
// stops and returns true as soon as k does.
func (st *btState) m(n *reNode, pos int, k func(int) bool) bool {
	st.steps++
	st.depth++
	defer func() { st.depth-- }()
	if st.steps > st.budget || st.depth > backtrackDepth {
		st.overflow = true
		return true
	}
	t := st.text
	switch n.op {
	case opLit, opSet:
		if pos < len(t) && n.set[t[pos]] {
			return k(pos + 1)
		}
		return false
	case opBol:
		if pos == 0 || t[pos-1] == '\n' {
			return k(pos)
		}
		return false
	case opEol:
		if pos == len(t) || t[pos] == '\n' {
			return k(pos)
		}
		return false
	case opBow:
		if pos < len(t) && isWordByte(t[pos]) && (pos == 0 || !isWordByte(t[pos-1])) {
			return k(pos)
		}
		return false
	case opEow:
		if pos > 0 && isWordByte(t[pos-1]) && (pos == len(t) || !isWordByte(t[pos])) {
			return k(pos)
		}
		return false
	case opConcat:
		return st.seq(n.subs, pos, k)
	case opAlt:
		for _, s := range n.subs {
			if st.m(s, pos, k) {
				return true
			}
		}
		return false
	case opGroup:
		i := 2 * n.idx
		oldS, oldE := st.caps[i], st.caps[i+1]
		done := st.m(n.subs[0], pos, func(end int) bool {
			s, e := st.caps[i], st.caps[i+1]
			st.caps[i], st.caps[i+1] = pos, end
			if k(end) {
				return true
			}
			st.caps[i], st.caps[i+1] = s, e
			return false
		})
		if !done {
			st.caps[i], st.caps[i+1] = oldS, oldE
		}
		return done
	case opBackref:
		s, e := st.caps[2*n.idx], st.caps[2*n.idx+1]
		if s < 0 || e < 0 {
			return false
		}
		l := e - s
		if pos+l <= len(t) && t[pos:pos+l] == t[s:e] {
			return k(pos + l)
		}
		return false
	case opRepeat:
		return st.rep(n, 0, pos, k)
	}
	return false
}

func (st *btState) seq(subs []*reNode, pos int, k func(int) bool) bool {
	if len(subs) == 0 {
		return k(pos)
	}
	return st.m(subs[0], pos, func(p int) bool { return st.seq(subs[1:], p, k) })
}

// rep matches further iterations of a repetition, greedily; an iteration
// that consumes nothing ends the loop to guarantee termination.
func (st *btState) rep(n *reNode, count, pos int, k func(int) bool) bool {
	if sub := n.subs[0]; count == 0 && (sub.op == opLit || sub.op == opSet) {
		return st.repByte(n, sub, pos, k)
	}
	if n.max < 0 || count < n.max {
		if st.m(n.subs[0], pos, func(p int) bool {
			if p == pos && count >= n.min {
				return false
			}
			return st.rep(n, count+1, p, k)
		}) {
			return true
		}
	}
	if count >= n.min {
		return k(pos)
	}
	return false
}

// repByte matches a repetition of one byte class without recursion: the
// longest run first, then shorter ones.
func (st *btState) repByte(n, sub *reNode, pos int, k func(int) bool) bool {
	t := st.text
	end := pos
	for end < len(t) && (n.max < 0 || end-pos < n.max) && sub.set[t[end]] {
		end++
	}
	for e := end; e-pos >= n.min; e-- {
		st.steps++
		if st.steps > st.budget {
			st.overflow = true
			return true
		}
		if k(e) {
			return true
		}
	}
	return false
}
