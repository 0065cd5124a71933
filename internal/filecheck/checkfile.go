package filecheck

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// Options are the settings of one FileCheck run (LLVM's FileCheckRequest).
type Options struct {
	CheckPrefixes             []string // default: CHECK
	CommentPrefixes           []string // default: COM, RUN
	ImplicitCheckNot          []string
	GlobalDefines             []string // "VAR=value" or "#VAR=expr"
	AllowEmptyInput           bool
	AllowUnusedPrefixes       bool
	MatchFullLines            bool
	StrictWhitespace          bool // no canonicalization of horizontal space
	IgnoreCase                bool
	EnableVarScope            bool
	AllowDeprecatedDagOverlap bool
	Verbose                   bool
	VerboseVerbose            bool
	Color                     bool // ANSI colors in diagnostics

	// DumpInput selects the annotated input dump: "fail" (the default),
	// "always" or "never". DumpFilter selects its lines: "error" (the
	// default for "fail"), "annotation", "annotation-full" or "all" (the
	// default for "always"). DumpContext is the number of lines shown
	// around selected lines (the command's default is 5).
	DumpInput      string
	DumpFilter     string
	DumpContext    int
	DumpLabelWidth int // minimum width of the label column

	isDefaultCheckPrefix bool
	dumpMode             dumpMode
	dumpFilter           dumpFilter
}

// dagNotInfo is a CHECK-DAG or CHECK-NOT pattern waiting for the next
// positive directive.
type dagNotInfo struct {
	pat    *pattern
	prefix string
}

// checkString is a positive directive with the DAG/NOT patterns before it
// (LLVM's FileCheckString).
type checkString struct {
	pat    *pattern
	prefix string
	loc    loc
	dagNot []dagNotInfo
}

// checker holds a parsed check file.
type checker struct {
	req      Options
	ctx      *patternContext
	sm       *srcMgr
	checks   []*checkString
	impBufs  []*srcBuf // one fake buffer per --implicit-check-not
	checkBuf *srcBuf
}

var (
	defaultCheckPrefixes   = []string{"CHECK"}
	defaultCommentPrefixes = []string{"COM", "RUN"}
)

// canonicalize drops the '\r' of "\r\n" and, unless strict, folds runs of
// spaces and tabs into one space (FileCheck::CanonicalizeFile).
func canonicalize(text string, strict bool) string {
	var b strings.Builder
	b.Grow(len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			continue
		}
		if strict || (c != ' ' && c != '\t') {
			b.WriteByte(c)
			continue
		}
		b.WriteByte(' ')
		for i+1 < len(text) && (text[i+1] == ' ' || text[i+1] == '\t') {
			i++
		}
	}
	return b.String()
}

func isPartOfWord(c byte) bool { return isAlpha(c) || isDigit(c) || c == '-' || c == '_' }

// validatePrefixes checks --check-prefix/--comment-prefixes values.
func validatePrefixes(w io.Writer, kind string, unique map[string]bool, prefixes []string) bool {
	for _, p := range prefixes {
		if p == "" {
			fmt.Fprintf(w, "error: supplied %s prefix must not be the empty string\n", kind)
			return false
		}
		for i := 0; i < len(p); i++ {
			if c := p[i]; !isAlpha(c) && !isDigit(c) && c != '_' && c != '-' {
				fmt.Fprintf(w, "error: supplied %s prefix must start with a letter and contain only alphanumeric characters, hyphens, and underscores: '%s'\n", kind, p)
				return false
			}
		}
		if unique[p] {
			fmt.Fprintf(w, "error: supplied %s prefix must be unique among check and comment prefixes: '%s'\n", kind, p)
			return false
		}
		unique[p] = true
	}
	return true
}

func (req *Options) validatePrefixes(w io.Writer) bool {
	unique := map[string]bool{}
	if len(req.CheckPrefixes) == 0 {
		for _, p := range defaultCheckPrefixes {
			unique[p] = true
		}
	}
	if len(req.CommentPrefixes) == 0 {
		for _, p := range defaultCommentPrefixes {
			unique[p] = true
		}
	}
	return validatePrefixes(w, "check", unique, req.CheckPrefixes) &&
		validatePrefixes(w, "comment", unique, req.CommentPrefixes)
}

// findCheckType classifies the text after a prefix found at the start of
// buf. It returns the type and the rest after the directive's colon.
func findCheckType(req *Options, buf sref, prefix string) (checkType, sref) {
	misspelled := false
	ty, rest := findCheckType1(req, buf, prefix, &misspelled)
	if ty.kind != checkNone && misspelled {
		return checkType{kind: checkMisspelled}, rest
	}
	return ty, rest
}

func findCheckType1(req *Options, buf sref, prefix string, misspelled *bool) (checkType, sref) {
	none := checkType{kind: checkNone}
	if buf.size() <= len(prefix) {
		return none, sref{}
	}
	rest := buf.from(len(prefix))
	for _, c := range req.CommentPrefixes {
		if c == prefix {
			if rest.consumeFront(":") {
				return checkType{kind: checkComment}, rest
			}
			return none, sref{}
		}
	}
	consumeModifiers := func(ret checkType) (checkType, sref) {
		if rest.consumeFront(":") {
			return ret, rest
		}
		if !rest.consumeFront("{") {
			return none, sref{}
		}
		for {
			rest = rest.ltrim(" \t\n\v\f\r")
			if rest.consumeFront("LITERAL") {
				ret.literal = true
			} else {
				return none, rest
			}
			rest = rest.ltrim(" \t\n\v\f\r")
			if !rest.consumeFront(",") {
				break
			}
		}
		if !rest.consumeFront("}:") {
			return none, rest
		}
		return ret, rest
	}
	if rest.consumeFront(":") {
		return checkType{kind: checkPlain}, rest
	}
	if rest.front() == '{' {
		return consumeModifiers(checkType{kind: checkPlain})
	}
	if rest.consumeFront("_") {
		*misspelled = true
	} else if !rest.consumeFront("-") {
		return none, sref{}
	}
	if rest.consumeFront("COUNT-") {
		bad := checkType{kind: checkBadCount}
		v, ok := consumeCount(&rest)
		if !ok || v <= 0 || v > 1<<31-1 {
			return bad, rest
		}
		if rest.empty() || (rest.front() != ':' && rest.front() != '{') {
			return bad, rest
		}
		return consumeModifiers(checkType{kind: checkPlain, count: int(v)})
	}
	for _, combo := range []string{"DAG-NOT:", "NOT-DAG:", "NEXT-NOT:", "NOT-NEXT:", "SAME-NOT:", "NOT-SAME:", "EMPTY-NOT:", "NOT-EMPTY:"} {
		if rest.startsWith(combo) {
			return checkType{kind: checkBadNot}, rest
		}
	}
	for _, d := range suffixed {
		if rest.consumeFront(d.suffix) {
			return consumeModifiers(checkType{kind: d.kind})
		}
	}
	return none, rest
}

// prefixMatcher finds the next occurrence of any prefix, preferring the
// longest prefix at the earliest position.
type prefixMatcher struct {
	prefixes []string
	pos      []int
	input    sref
}

func newPrefixMatcher(check, comment []string, input sref) *prefixMatcher {
	m := &prefixMatcher{input: input}
	m.prefixes = append(append(m.prefixes, check...), comment...)
	sort.SliceStable(m.prefixes, func(i, j int) bool { return len(m.prefixes[i]) > len(m.prefixes[j]) })
	for _, p := range m.prefixes {
		m.pos = append(m.pos, input.find(p, 0))
	}
	return m
}

// match returns the offset (relative to input) and prefix of the next
// prefix occurrence at or after from, or npos.
func (m *prefixMatcher) match(from int) (int, string) {
	best, bestP := npos, ""
	for i, p := range m.prefixes {
		if m.pos[i] < from {
			m.pos[i] = m.input.find(p, from)
		}
		if m.pos[i] != npos && m.pos[i] < best {
			best, bestP = m.pos[i], p
		}
	}
	return best, bestP
}

// readCheckFile parses the check file (FileCheck::readCheckFile). It prints
// diagnostics and returns a non-nil error if the file is invalid.
func (fc *checker) readCheckFile(checkBuf *srcBuf) error {
	sm, req := fc.sm, &fc.req
	fc.checkBuf = checkBuf
	if errs := fc.defineCmdlineVariables(); len(errs) > 0 {
		sm.logErrors(errList(errs))
		return parseError{2}
	}
	fc.ctx.lineVar = &numVar{name: "@LINE", format: exprFormat{kind: fmtUnsigned}}
	fc.ctx.globalNumVars["@LINE"] = fc.ctx.lineVar

	var implicit []dagNotInfo
	for _, s := range req.ImplicitCheckNot {
		const pre = "-implicit-check-not='"
		b := &srcBuf{name: "command line", text: pre + s + "'"}
		fc.impBufs = append(fc.impBufs, b)
		p := newPattern(checkType{kind: checkNot}, fc.ctx, 0)
		// As in LLVM, errors in implicit patterns are printed but ignored.
		p.parse(sref{b, len(pre), len(pre) + len(s)}, "IMPLICIT-CHECK", sm, req)
		implicit = append(implicit, dagNotInfo{p, "IMPLICIT-CHECK"})
	}
	dagNots := append([]dagNotInfo(nil), implicit...)
	lineNumber := 1

	if len(req.CheckPrefixes) == 0 {
		req.CheckPrefixes = defaultCheckPrefixes
		req.isDefaultCheckPrefix = true
	}
	if len(req.CommentPrefixes) == 0 {
		req.CommentPrefixes = defaultCommentPrefixes
	}
	input := wholeBuf(checkBuf)
	matcher := newPrefixMatcher(req.CheckPrefixes, req.CommentPrefixes, input)
	notFound := map[string]bool{}
	for _, p := range req.CheckPrefixes {
		notFound[p] = true
	}
	distinct := len(notFound)
	buf := input
	for {
		// FindFirstMatchingPrefix.
		var usedPrefix string
		var ty checkType
		var after sref
		found := false
		for !buf.empty() {
			at, prefix := matcher.match(buf.off - input.off)
			if at == npos {
				break
			}
			l := at - (buf.off - input.off)
			skipped := buf.substr(0, l)
			buf = buf.from(l)
			lineNumber += skipped.count('\n')
			if skipped.empty() || !isPartOfWord(skipped.back()) {
				ty, after = findCheckType(req, buf, prefix)
				if ty.kind != checkNone {
					usedPrefix, found = prefix, true
					break
				}
			}
			i := len(prefix)
			for i < buf.size() && isPartOfWord(buf.at(i)) {
				i++
			}
			buf = buf.from(i)
		}
		if !found {
			break
		}
		if ty.kind != checkComment {
			delete(notFound, usedPrefix)
		}
		prefixStart := buf.loc()
		if after.b == nil {
			buf = buf.from(len(usedPrefix))
		} else {
			buf = after
		}
		switch ty.kind {
		case checkMisspelled:
			d := input.slice(prefixStart.off, after.off).str()
			sm.printMessage(prefixStart, dkError, fmt.Sprintf("misspelled directive '%s'", d))
			return parseError{2}
		case checkBadNot:
			sm.printMessage(buf.loc(), dkError, fmt.Sprintf("unsupported -NOT combo on prefix '%s'", usedPrefix))
			return parseError{2}
		case checkBadCount:
			sm.printMessage(buf.loc(), dkError, fmt.Sprintf("invalid count in -COUNT specification on prefix '%s'", usedPrefix))
			return parseError{2}
		}
		if !(req.StrictWhitespace && req.MatchFullLines) {
			buf = buf.from(buf.findFirstNotOf(" \t"))
		}
		eol := buf.findFirstOf("\n\r")
		patternLoc := buf.loc()
		patBuf := buf.substr(0, eol)
		buf = buf.from(eol)
		if ty.kind == checkComment {
			continue
		}
		p := newPattern(ty, fc.ctx, lineNumber)
		if err := p.parse(patBuf, usedPrefix, sm, req); err != nil {
			return err
		}
		if ty.kind == checkLabel && p.hasVariable() {
			sm.printMessage(prefixStart, dkError, fmt.Sprintf("found '%s-LABEL:' with variable definition or use", usedPrefix))
			return parseError{2}
		}
		if (ty.kind == checkNext || ty.kind == checkSame || ty.kind == checkEmpty) && len(fc.checks) == 0 {
			sm.printMessage(prefixStart, dkError, fmt.Sprintf("found '%s-%s' without previous '%s: line", usedPrefix, ty.kind.suffix(), usedPrefix))
			return parseError{2}
		}
		if ty.kind == checkDAG || ty.kind == checkNot {
			dagNots = append(dagNots, dagNotInfo{p, usedPrefix})
			continue
		}
		fc.checks = append(fc.checks, &checkString{pat: p, prefix: usedPrefix, loc: patternLoc, dagNot: dagNots})
		dagNots = append([]dagNotInfo(nil), implicit...)
	}

	noneFound := len(notFound) == distinct
	someUnused := !req.AllowUnusedPrefixes && len(notFound) > 0
	if (noneFound || someUnused) && (len(implicit) == 0 || !req.isDefaultCheckPrefix) {
		var missing []string
		for p := range notFound {
			missing = append(missing, "'"+p+":'")
		}
		sort.Strings(missing)
		es := " "
		if len(missing) > 1 {
			es = "es "
		}
		fmt.Fprintf(sm.out, "error: no check strings found with prefix%s%s\n", es, strings.Join(missing, ", "))
		return parseError{2}
	}
	if len(dagNots) > 0 {
		p := newPattern(checkType{kind: checkEOF}, fc.ctx, lineNumber+1)
		fc.checks = append(fc.checks, &checkString{pat: p, prefix: req.CheckPrefixes[0], loc: buf.loc(), dagNot: dagNots})
	}
	return nil
}

// defineCmdlineVariables handles -D and -D# definitions; the errors point
// into a fake "Global defines" buffer like LLVM's.
func (fc *checker) defineCmdlineVariables() []error {
	defs := fc.req.GlobalDefines
	if len(defs) == 0 {
		return nil
	}
	type idx struct{ off, n int }
	var text strings.Builder
	var indices []idx
	for i, def := range defs {
		pre := fmt.Sprintf("Global define #%d: ", i+1)
		eq := strings.IndexByte(def, '=')
		if eq < 0 {
			indices = append(indices, idx{text.Len(), 0})
			continue
		}
		if def[0] == '#' {
			text.WriteString(pre + def + " (parsed as: [[")
			subst := def[:eq] + ":" + def[eq+1:]
			indices = append(indices, idx{text.Len(), len(subst)})
			text.WriteString(subst + "]])\n")
		} else {
			text.WriteString(pre)
			indices = append(indices, idx{text.Len(), len(def)})
			text.WriteString(def + "\n")
		}
	}
	b := &srcBuf{name: "Global defines", text: text.String()}
	var errs []error
	for _, ix := range indices {
		def := sref{b, ix.off, ix.off + ix.n}
		if def.empty() {
			errs = append(errs, newDiagErr(def, "missing equal sign in global definition"))
			continue
		}
		if def.front() == '#' {
			e, v, err := fc.ctx.parseNumericSubstitutionBlock(def.from(1), false, 0)
			if err != nil {
				errs = append(errs, flattenErrs(err)...)
				continue
			}
			if e.ast == nil || v == nil {
				// "#VAR=" with an empty expression cannot happen: LLVM asserts.
				errs = append(errs, newDiagErr(def, "missing numeric expression"))
				continue
			}
			val, verrs := e.evalValue()
			if len(verrs) > 0 {
				errs = append(errs, verrs...)
				continue
			}
			v.setValue(val, sref{}, false)
			fc.ctx.globalNumVars[v.name] = v
			continue
		}
		eq := def.findByte('=')
		name := def.substr(0, eq)
		orig := name
		props, err := parseVariable(&name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if props.isPseudo || !name.empty() {
			errs = append(errs, newDiagErr(orig, fmt.Sprintf("invalid name in string variable definition '%s'", orig.str())))
			continue
		}
		n := props.name.str()
		if _, ok := fc.ctx.globalNumVars[n]; ok {
			errs = append(errs, newDiagErr(props.name, fmt.Sprintf("numeric variable with name '%s' already exists", n)))
			continue
		}
		if _, ok := fc.ctx.globalVars[n]; !ok {
			fc.ctx.globalVars[n] = strVal{val: def.from(eq + 1).str(), where: def.from(eq + 1)}
		}
		fc.ctx.definedVars[n] = true
	}
	return errs
}

// consumeCount reads a -COUNT's number the way LLVM's
// StringRef::consumeInteger(10, int64_t&) does, including where it leaves
// the text on failure (which is where the diagnostic's caret goes): a
// number that overflows 64 bits unsigned leaves the text untouched, one
// that fits 64 bits unsigned but not int64 is consumed all the same, and a
// negative number is consumed only when it fits int64.
func consumeCount(s *sref) (int64, bool) {
	str := s.str()
	digits := func(from int) (uint64, int, bool) {
		var v uint64
		i := from
		for i < len(str) && isDigit(str[i]) {
			d := uint64(str[i] - '0')
			if v > (math.MaxUint64-d)/10 {
				return 0, 0, false
			}
			v = v*10 + d
			i++
		}
		return v, i, i != from
	}
	if !strings.HasPrefix(str, "-") {
		v, end, ok := digits(0)
		if !ok {
			return 0, false
		}
		*s = s.from(end)
		if v > math.MaxInt64 {
			return 0, false
		}
		return int64(v), true
	}
	v, end, ok := digits(1)
	if !ok || v > 1<<63 {
		return 0, false
	}
	*s = s.from(end)
	return -int64(v), true
}
