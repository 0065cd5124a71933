package filecheck

import (
	"fmt"
	"sort"
)

// matchType classifies a diagnostic for the input dump (FileCheckDiag).
type matchType int

const (
	matchFoundAndExpected matchType = iota
	matchFoundButExcluded
	matchFoundButWrongLine
	matchFoundButDiscarded
	matchFoundErrorNote
	matchNoneAndExcluded
	matchNoneButExpected
	matchNoneForInvalidPattern
	matchFuzzy
)

// fcDiag is one diagnostic recorded for the input dump.
type fcDiag struct {
	checkTy             checkType
	checkLoc            loc
	matchTy             matchType
	startLine, startCol int
	endLine, endCol     int
	note                string
}

func newDiag(ty checkType, checkLoc loc, mt matchType, r sref, note string) fcDiag {
	sl, sc := r.loc().lineCol()
	el, ec := r.endLoc().lineCol()
	return fcDiag{ty, checkLoc, mt, sl, sc, el, ec, note}
}

// diagList collects diagnostics; a nil *diagList means "not collecting".
type diagList struct{ d []fcDiag }

func (fc *checker) processMatchResult(mt matchType, l loc, ty checkType, buf sref, pos, n int, diags *diagList, adjustPrev bool) sref {
	r := buf.substr(pos, n)
	if pos > buf.size() {
		r = sref{buf.b, buf.end, buf.end}
	}
	if diags != nil {
		if adjustPrev && len(diags.d) > 0 {
			last := diags.d[len(diags.d)-1].checkLoc
			for i := len(diags.d) - 1; i >= 0 && diags.d[i].checkLoc == last; i-- {
				diags.d[i].matchTy = mt
			}
		} else {
			diags.d = append(diags.d, newDiag(ty, l, mt, r, ""))
		}
	}
	return r
}

// printSubstitutions reports the values substituted into the pattern.
func (fc *checker) printSubstitutions(p *pattern, r sref, mt matchType, diags *diagList) {
	for _, s := range p.subs {
		v, ok := s.diagValue()
		if !ok {
			continue
		}
		msg := fmt.Sprintf(`with "%s" equal to %s`, writeEscaped(s.from.str()), v)
		start := sref{r.b, r.off, r.off}
		if diags != nil {
			diags.d = append(diags.d, newDiag(p.ty, p.loc, mt, start, msg))
		} else {
			fc.sm.printMessage(start.loc(), dkNote, msg)
		}
	}
}

// printVariableDefs reports the variables the match captured.
func (fc *checker) printVariableDefs(p *pattern, mt matchType, diags *diagList) {
	type capture struct {
		name string
		r    sref
	}
	var caps []capture
	for _, name := range p.varDefList {
		caps = append(caps, capture{name, fc.ctx.globalVars[name].where})
	}
	for _, name := range p.numDefList {
		v := p.numDefs[name].v
		if !v.hasStr {
			continue
		}
		caps = append(caps, capture{name, v.strVal})
	}
	sort.SliceStable(caps, func(i, j int) bool { return caps[i].r.off < caps[j].r.off })
	for _, c := range caps {
		msg := fmt.Sprintf(`captured var "%s"`, c.name)
		if diags != nil {
			diags.d = append(diags.d, newDiag(p.ty, p.loc, mt, c.r, msg))
		} else if c.r.b != nil {
			fc.sm.printMessage(c.r.loc(), dkNote, msg, c.r)
		}
	}
}

// printFuzzyMatch suggests where the pattern was probably meant to match.
func (fc *checker) printFuzzyMatch(p *pattern, buf sref, diags *diagList) {
	text := buf.str()
	if 4096*2048 < min(4096, len(text))*max(len(p.fixedStr), len(p.regexStr)) {
		return
	}
	linesForward := 0
	best := npos
	bestQuality := 0.0
	for i, e := 0, min(4096, len(text)); i != e; i++ {
		if text[i] == '\n' {
			linesForward++
		}
		if text[i] == ' ' || text[i] == '\t' {
			continue
		}
		q := float64(p.computeMatchDistance(text[i:])) + float64(linesForward)/100
		if q < bestQuality || best == npos {
			best, bestQuality = i, q
		}
	}
	if best != 0 && best != npos && bestQuality < 50 {
		r := fc.processMatchResult(matchFuzzy, p.loc, p.ty, buf, best, 0, diags, false)
		fc.sm.printMessage(r.loc(), dkNote, "possible intended match here")
	}
}

// printMatch reports a match; it returns true if that is an error.
func (fc *checker) printMatch(expected bool, prefix string, l loc, p *pattern, count int, buf sref, pos, n int, diags *diagList) bool {
	req := &fc.req
	hasError := !expected
	printDiag := true
	if !hasError {
		if !req.Verbose {
			return false
		}
		if !req.VerboseVerbose && p.ty.kind == checkEOF {
			return false
		}
		printDiag = diags == nil
	}
	mt := matchFoundAndExpected
	if !expected {
		mt = matchFoundButExcluded
	}
	r := fc.processMatchResult(mt, l, p.ty, buf, pos, n, diags, false)
	if diags != nil {
		fc.printSubstitutions(p, r, mt, diags)
		fc.printVariableDefs(p, mt, diags)
	}
	if !printDiag {
		return hasError
	}
	what, kind := "expected", dkRemark
	if !expected {
		what, kind = "excluded", dkError
	}
	fc.sm.printMessage(l, kind, searchMessage(p, prefix, what, "found", count))
	fc.sm.printMessage(r.loc(), dkNote, "found here", r)
	fc.printSubstitutions(p, r, mt, nil)
	fc.printVariableDefs(p, mt, nil)
	return hasError
}

// searchMessage is the message of a search's outcome: "CHECK: expected
// string not found in input", with "(count out of N)" for a CHECK-COUNT-N.
func searchMessage(p *pattern, prefix, what, outcome string, count int) string {
	msg := fmt.Sprintf("%s: %s string %s in input", p.ty.description(prefix), what, outcome)
	if p.ty.getCount() > 1 {
		msg += fmt.Sprintf(" (%d out of %d)", count, p.ty.getCount())
	}
	return msg
}

// printNoMatch reports a failed search; it returns true if that is an error.
func (fc *checker) printNoMatch(expected bool, prefix string, l loc, p *pattern, count int, buf sref, errs []error, diags *diagList) bool {
	req := &fc.req
	hasError, hasPatternError := expected, false
	mt := matchNoneButExpected
	if !expected {
		mt = matchNoneAndExcluded
	}
	var msgs []string
	for _, e := range errs {
		if d, ok := e.(*diagError); ok {
			hasError, hasPatternError = true, true
			mt = matchNoneForInvalidPattern
			fc.sm.printDiagErr(d)
			msgs = append(msgs, d.msg)
		}
	}
	printDiag := true
	if !hasError {
		if !req.VerboseVerbose {
			return false
		}
		printDiag = diags == nil
	}
	r := fc.processMatchResult(mt, l, p.ty, buf, 0, buf.size(), diags, false)
	if diags != nil {
		start := sref{r.b, r.off, r.off}
		for _, m := range msgs {
			diags.d = append(diags.d, newDiag(p.ty, l, mt, start, m))
		}
		fc.printSubstitutions(p, r, mt, diags)
	}
	if !printDiag {
		return hasError
	}
	if !hasPatternError {
		what, kind := "expected", dkError
		if !expected {
			what, kind = "excluded", dkRemark
		}
		fc.sm.printMessage(l, kind, searchMessage(p, prefix, what, "not found", count))
		fc.sm.printMessage(r.loc(), dkNote, "scanning from here")
	}
	fc.printSubstitutions(p, r, mt, nil)
	if expected {
		fc.printFuzzyMatch(p, buf, diags)
	}
	return hasError
}

func (fc *checker) reportMatchResult(expected bool, prefix string, l loc, p *pattern, count int, buf sref, m matchResult, diags *diagList) bool {
	if m.found {
		return fc.printMatch(expected, prefix, l, p, count, buf, m.pos, m.len, diags)
	}
	return fc.printNoMatch(expected, prefix, l, p, count, buf, m.errs, diags)
}

// countNewlines counts line breaks in r ("\r\n" and "\n\r" count once) and
// returns the offset just after the first one.
func countNewlines(r sref) (int, int) {
	n, first := 0, -1
	s := r.str()
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] != '\n' && s[j] != '\r' {
			j++
		}
		if j == len(s) {
			break
		}
		n++
		if j+1 < len(s) && (s[j+1] == '\n' || s[j+1] == '\r') && s[j] != s[j+1] {
			j++
		}
		i = j + 1
		if n == 1 {
			first = i
		}
	}
	return n, first
}

// check matches one checkString in buf (FileCheckString::Check). It
// returns the match position and length, or npos.
func (fc *checker) check(cs *checkString, buf sref, labelScan bool, diags *diagList) (int, int) {
	lastPos := 0
	var notStrings []dagNotInfo
	if !labelScan {
		lastPos = fc.checkDag(cs, buf, &notStrings, diags)
		if lastPos == npos {
			return npos, 0
		}
	}
	p := cs.pat
	lastMatchEnd, firstMatchPos := lastPos, 0
	for i := 1; i <= p.ty.getCount(); i++ {
		mb := buf.from(lastMatchEnd)
		m := p.match(mb)
		if fc.reportMatchResult(true, cs.prefix, cs.loc, p, i, mb, m, diags) {
			return npos, 0
		}
		if i == 1 {
			firstMatchPos = lastPos + m.pos
		}
		lastMatchEnd += m.pos + m.len
	}
	matchLen := lastMatchEnd - firstMatchPos
	if !labelScan {
		matchPos := firstMatchPos - lastPos
		mb := buf.from(lastPos)
		skipped := buf.substr(lastPos, matchPos)
		if fc.checkNext(cs, skipped) || fc.checkSame(cs, skipped) {
			fc.processMatchResult(matchFoundButWrongLine, cs.loc, p.ty, mb, matchPos, matchLen, diags, fc.req.Verbose)
			return npos, 0
		}
		if fc.checkNot(skipped, notStrings, diags) {
			return npos, 0
		}
	}
	return firstMatchPos, matchLen
}

// checkNext verifies a CHECK-NEXT/CHECK-EMPTY match is on the next line.
func (fc *checker) checkNext(cs *checkString, skipped sref) bool {
	k := cs.pat.ty.kind
	if k != checkNext && k != checkEmpty {
		return false
	}
	name := cs.prefix + "-NEXT"
	if k == checkEmpty {
		name = cs.prefix + "-EMPTY"
	}
	n, first := countNewlines(skipped)
	if n == 0 {
		fc.sm.printMessage(cs.loc, dkError, name+": is on the same line as previous match")
		fc.sm.printMessage(skipped.endLoc(), dkNote, "'next' match was here")
		fc.sm.printMessage(skipped.loc(), dkNote, "previous match ended here")
		return true
	}
	if n != 1 {
		fc.sm.printMessage(cs.loc, dkError, name+": is not on the line after the previous match")
		fc.sm.printMessage(skipped.endLoc(), dkNote, "'next' match was here")
		fc.sm.printMessage(skipped.loc(), dkNote, "previous match ended here")
		fc.sm.printMessage(loc{skipped.b, skipped.off + first}, dkNote, "non-matching line after previous match is here")
		return true
	}
	return false
}

// checkSame verifies a CHECK-SAME match is on the same line.
func (fc *checker) checkSame(cs *checkString, skipped sref) bool {
	if cs.pat.ty.kind != checkSame {
		return false
	}
	if n, _ := countNewlines(skipped); n != 0 {
		fc.sm.printMessage(cs.loc, dkError, cs.prefix+"-SAME: is not on the same line as the previous match")
		fc.sm.printMessage(skipped.endLoc(), dkNote, "'next' match was here")
		fc.sm.printMessage(skipped.loc(), dkNote, "previous match ended here")
		return true
	}
	return false
}

// checkNot verifies that no CHECK-NOT pattern matches in buf.
func (fc *checker) checkNot(buf sref, nots []dagNotInfo, diags *diagList) bool {
	fail := false
	for _, n := range nots {
		m := n.pat.match(buf)
		if fc.reportMatchResult(false, n.prefix, n.pat.loc, n.pat, 1, buf, m, diags) {
			fail = true
		}
	}
	return fail
}

// checkDag matches the CHECK-DAG groups before cs, collecting CHECK-NOTs
// into notStrings; it returns where the positive match search starts.
func (fc *checker) checkDag(cs *checkString, buf sref, notStrings *[]dagNotInfo, diags *diagList) int {
	if len(cs.dagNot) == 0 {
		return 0
	}
	req := &fc.req
	startPos := 0
	type mrange struct{ pos, end int }
	var ranges []mrange // sorted, non-overlapping matches of this group
	for pi, dn := range cs.dagNot {
		p := dn.pat
		if p.ty.kind == checkNot {
			*notStrings = append(*notStrings, dn)
			continue
		}
		matchLen, matchPos := 0, startPos
		mi := 0
		for {
			mb := buf.from(matchPos)
			m := p.match(mb)
			if !m.found || req.VerboseVerbose {
				if fc.reportMatchResult(true, dn.prefix, p.loc, p, 1, mb, m, diags) {
					return npos
				}
			}
			matchLen = m.len
			matchPos += m.pos
			r := mrange{matchPos, matchPos + matchLen}
			if req.AllowDeprecatedDagOverlap {
				if len(ranges) == 0 {
					ranges = append(ranges, r)
				} else {
					ranges[0].pos = min(ranges[0].pos, r.pos)
					ranges[0].end = max(ranges[0].end, r.end)
				}
				break
			}
			overlap := false
			for ; mi < len(ranges); mi++ {
				if r.pos < ranges[mi].end {
					overlap = ranges[mi].pos < r.end
					break
				}
			}
			if !overlap {
				ranges = append(ranges, mrange{})
				copy(ranges[mi+1:], ranges[mi:])
				ranges[mi] = r
				break
			}
			if req.VerboseVerbose {
				if diags == nil {
					old := buf.slice(ranges[mi].pos, ranges[mi].end)
					fc.sm.printMessage(old.loc(), dkNote, "match discarded, overlaps earlier DAG match here", old)
				} else if len(diags.d) > 0 {
					last := diags.d[len(diags.d)-1].checkLoc
					for i := len(diags.d) - 1; i >= 0 && diags.d[i].checkLoc == last; i-- {
						diags.d[i].matchTy = matchFoundButDiscarded
					}
				}
			}
			matchPos = ranges[mi].end
			mi++
		}
		if !req.VerboseVerbose {
			fc.printMatch(true, dn.prefix, p.loc, p, 1, buf, matchPos, matchLen, diags)
		}
		if pi+1 == len(cs.dagNot) || cs.dagNot[pi+1].pat.ty.kind == checkNot {
			if len(*notStrings) > 0 {
				skipped := buf.slice(startPos, ranges[0].pos)
				if fc.checkNot(skipped, *notStrings, diags) {
					return npos
				}
				*notStrings = (*notStrings)[:0]
			}
			startPos = ranges[len(ranges)-1].end
			ranges = ranges[:0]
		}
	}
	return startPos
}

// checkInput checks the whole input (FileCheck::checkInput); it returns
// true when every directive matched.
func (fc *checker) checkInput(input sref, diags *diagList) bool {
	failed := false
	i, j, e := 0, 0, len(fc.checks)
	buf := input
	for {
		var region sref
		if j == e {
			region = buf
		} else {
			label := fc.checks[j]
			if label.pat.ty.kind != checkLabel {
				j++
				continue
			}
			pos, n := fc.check(label, buf, true, diags)
			if pos == npos {
				return false
			}
			region = buf.substr(0, pos+n)
			buf = buf.from(pos + n)
			j++
		}
		if i != 0 && fc.req.EnableVarScope {
			fc.ctx.clearLocalVars()
		}
		for ; i != j; i++ {
			pos, n := fc.check(fc.checks[i], region, false, diags)
			if pos == npos {
				failed = true
				i = j
				break
			}
			region = region.from(pos + n)
		}
		if j == e {
			break
		}
	}
	return !failed
}
