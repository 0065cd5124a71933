package filecheck

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/otir-dev/otir/internal/textdist"
)

// checkKind is the kind of a directive.
type checkKind int

const (
	checkNone checkKind = iota
	checkPlain
	checkNext
	checkSame
	checkNot
	checkDAG
	checkLabel
	checkEmpty
	checkComment
	checkEOF
	checkBadNot
	checkBadCount
	checkMisspelled
)

// suffixed are the kinds spelled PREFIX-SUFFIX (CHECK-NEXT, ...), in the
// order the parser tries them.
var suffixed = []struct {
	suffix string
	kind   checkKind
}{{"NEXT", checkNext}, {"SAME", checkSame}, {"NOT", checkNot}, {"DAG", checkDAG}, {"LABEL", checkLabel}, {"EMPTY", checkEmpty}}

// suffix is k's suffix in suffixed, or "" for a kind spelled otherwise.
func (k checkKind) suffix() string {
	for _, d := range suffixed {
		if d.kind == k {
			return d.suffix
		}
	}
	return ""
}

// checkType is a directive kind with its COUNT and {LITERAL} modifiers.
type checkType struct {
	kind    checkKind
	count   int
	literal bool
}

func (t checkType) getCount() int {
	if t.count == 0 {
		return 1
	}
	return t.count
}

// description is how diagnostics name the directive, e.g. "CHECK-NEXT".
func (t checkType) description(prefix string) string {
	mods := ""
	if t.literal {
		mods = "{LITERAL}"
	}
	if s := t.kind.suffix(); s != "" {
		return prefix + "-" + s + mods
	}
	switch t.kind {
	case checkNone:
		return "invalid"
	case checkMisspelled:
		return "misspelled"
	case checkPlain:
		if t.getCount() > 1 {
			return prefix + "-COUNT" + mods
		}
		return prefix + mods
	case checkComment:
		return prefix
	case checkEOF:
		return "implicit EOF"
	case checkBadNot:
		return "bad NOT"
	case checkBadCount:
		return "bad COUNT"
	}
	return "unknown"
}

// abbrev is the short name used for input-dump labels.
func (t checkType) abbrev() string {
	switch t.kind {
	case checkPlain:
		if t.getCount() > 1 {
			return "count"
		}
		return "check"
	case checkNext:
		return "next"
	case checkSame:
		return "same"
	case checkNot:
		return "not"
	case checkDAG:
		return "dag"
	case checkLabel:
		return "label"
	case checkEmpty:
		return "empty"
	case checkComment:
		return "com"
	case checkEOF:
		return "eof"
	case checkBadNot:
		return "bad-not"
	case checkBadCount:
		return "bad-count"
	case checkMisspelled:
		return "misspelled"
	}
	return "invalid"
}

// strVal is the value of a string variable and where in the input (or
// command line) it came from.
type strVal struct {
	val   string
	where sref
}

// patternContext holds the variables shared by all patterns.
type patternContext struct {
	globalVars    map[string]strVal
	definedVars   map[string]bool
	globalNumVars map[string]*numVar
	lineVar       *numVar
}

func newPatternContext() *patternContext {
	return &patternContext{
		globalVars:    map[string]strVal{},
		definedVars:   map[string]bool{},
		globalNumVars: map[string]*numVar{},
	}
}

// clearLocalVars forgets every variable whose name does not start with '$'
// (--enable-var-scope at each CHECK-LABEL block).
func (c *patternContext) clearLocalVars() {
	for name := range c.globalVars {
		if name[0] != '$' {
			delete(c.globalVars, name)
		}
	}
	for name, v := range c.globalNumVars {
		if name[0] != '$' {
			v.clear()
			delete(c.globalNumVars, name)
		}
	}
}

// substitution is a [[VAR]] or [[#expr]] whose value is inserted into the
// pattern's regex at match time.
type substitution struct {
	ctx       *patternContext
	from      sref
	insertIdx int
	expr      *expression // nil for string substitutions
}

// value returns the regex text to insert.
func (s *substitution) value() (string, []error) {
	if s.expr != nil {
		return s.expr.evalToString()
	}
	v, ok := s.ctx.globalVars[s.from.str()]
	if !ok {
		return "", []error{&undefVarError{s.from}}
	}
	return regexEscape(v.val), nil
}

// diagValue is the value as shown in "with "X" equal to ..." notes.
func (s *substitution) diagValue() (string, bool) {
	if s.expr != nil {
		v, errs := s.expr.evalToString()
		if len(errs) > 0 {
			return "", false
		}
		return `"` + v + `"`, true
	}
	v, ok := s.ctx.globalVars[s.from.str()]
	if !ok {
		return "", false
	}
	needsEscape := false
	for i := 0; i < len(v.val); i++ {
		if c := v.val[i]; c < 32 || c >= 127 || c == '"' {
			needsEscape = true
		}
	}
	if !needsEscape {
		return `"` + v.val + `"`, true
	}
	return `"` + writeEscaped(v.val) + `" (escaped value)`, true
}

// writeEscaped escapes like llvm::raw_ostream::write_escaped.
func writeEscaped(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '"':
			b.WriteString(`\"`)
		default:
			if c >= 32 && c < 127 {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, `\%03o`, c)
			}
		}
	}
	return b.String()
}

type numVarMatch struct {
	v     *numVar
	paren int
}

// pattern is one parsed directive pattern.
type pattern struct {
	ctx        *patternContext
	ty         checkType
	fixedStr   string
	regexStr   string
	subs       []*substitution
	varDefs    map[string]int
	varDefList []string // definition order, for deterministic iteration
	numDefs    map[string]numVarMatch
	numDefList []string
	loc        loc
	lineNumber int
	ignoreCase bool
	compiled   *ereRegex
}

func newPattern(ty checkType, ctx *patternContext, line int) *pattern {
	return &pattern{ctx: ctx, ty: ty, lineNumber: line, varDefs: map[string]int{}, numDefs: map[string]numVarMatch{}}
}

func (p *pattern) hasVariable() bool { return len(p.subs) > 0 || len(p.varDefs) > 0 }

// backrefLimit is how many string variables a pattern can reuse on the
// line that defines them.
const backrefLimit = 20

// parseError is a pattern error already printed; fatal ones exit 1.
type parseError struct{ exitCode int }

func (parseError) Error() string { return "pattern error" }

// parse parses the text of a pattern (Pattern::parsePattern). Diagnostics
// are printed to sm; a non-nil error means the check file is invalid.
func (p *pattern) parse(ps sref, prefix string, sm *srcMgr, req *Options) error {
	matchFullLinesHere := req.MatchFullLines && p.ty.kind != checkNot
	p.ignoreCase = req.IgnoreCase
	p.loc = ps.loc()
	if !(req.StrictWhitespace && req.MatchFullLines) {
		ps = ps.rtrim(" \t")
	}
	if ps.empty() && p.ty.kind != checkEmpty {
		sm.printMessage(p.loc, dkError, fmt.Sprintf("found empty check string with prefix '%s:'", prefix))
		return parseError{2}
	}
	if !ps.empty() && p.ty.kind == checkEmpty {
		sm.printMessage(p.loc, dkError, fmt.Sprintf("found non-empty check string for empty check with prefix '%s:'", prefix))
		return parseError{2}
	}
	if p.ty.kind == checkEmpty {
		p.regexStr = "(\n$)"
		return nil
	}
	if p.ty.literal {
		p.fixedStr = ps.str()
		return nil
	}
	if !matchFullLinesHere && (ps.size() < 2 || (!strings.Contains(ps.str(), "{{") && !strings.Contains(ps.str(), "[["))) {
		p.fixedStr = ps.str()
		return nil
	}
	var re strings.Builder
	if matchFullLinesHere {
		re.WriteByte('^')
		if !req.StrictWhitespace {
			re.WriteString(" *")
		}
	}
	curParen := 1
	addRegex := func(rs sref) error {
		nsub, msg := validateERE(rs.str())
		if msg != "" {
			sm.printMessage(rs.loc(), dkError, "invalid regex: "+msg)
			return parseError{2}
		}
		re.WriteString(rs.str())
		curParen += nsub
		return nil
	}
	for !ps.empty() {
		if ps.startsWith("{{") {
			end := ps.find("}}", 0)
			if end == npos {
				sm.printMessage(ps.loc(), dkError, "found start of regex string with no end '}}'")
				return parseError{2}
			}
			hasAlt := strings.Contains(ps.str(), "|")
			if hasAlt {
				re.WriteByte('(')
				curParen++
			}
			if err := addRegex(ps.substr(2, end-2)); err != nil {
				return err
			}
			if hasAlt {
				re.WriteByte(')')
			}
			ps = ps.from(end + 2)
			continue
		}
		if ps.startsWith("[[") && !ps.startsWith("[[[") {
			unparsed := ps.from(2)
			end, fatal := findRegexVarEnd(unparsed, sm)
			if fatal {
				return parseError{1}
			}
			matchStr := unparsed.substr(0, end)
			isNum := matchStr.consumeFront("#")
			if end == npos {
				sm.printMessage(ps.loc(), dkError, "Invalid substitution block, no ]] found")
				return parseError{2}
			}
			ps = unparsed.from(end + 2)

			isDef, substNeeded, legacy := false, false, false
			var defName, substStr, matchRegexp sref
			matchRegexpStr := ""
			substInsertIdx := re.Len()

			if !isNum {
				varEnd := matchStr.findByte(':')
				if sp := matchStr.substr(0, varEnd).findFirstOf(" \t"); sp != npos {
					sm.printMessage(loc{matchStr.b, matchStr.off + sp}, dkError, "unexpected whitespace")
					return parseError{2}
				}
				orig := matchStr
				props, err := parseVariable(&matchStr)
				if err != nil {
					sm.logErrors(err)
					return parseError{2}
				}
				name := props.name
				isDef = varEnd != npos
				substNeeded = !isDef
				if isDef {
					if props.isPseudo || !matchStr.consumeFront(":") {
						sm.printMessage(name.loc(), dkError, "invalid name in string variable definition")
						return parseError{2}
					}
					if _, ok := p.ctx.globalNumVars[name.str()]; ok {
						sm.printMessage(name.loc(), dkError, fmt.Sprintf("numeric variable with name '%s' already exists", name.str()))
						return parseError{2}
					}
					defName = name
					matchRegexp = matchStr
					matchRegexpStr = matchStr.str()
				} else if props.isPseudo {
					matchStr = orig
					legacy, isNum = true, true
				} else {
					if !matchStr.empty() {
						sm.printMessage(name.loc(), dkError, "invalid name in string variable use")
						return parseError{2}
					}
					substStr = name
				}
			}

			var expr *expression
			var defNum *numVar
			if isNum {
				e, def, err := p.ctx.parseNumericSubstitutionBlock(matchStr, legacy, p.lineNumber)
				if err != nil {
					sm.logErrors(err)
					return parseError{2}
				}
				expr = e
				substNeeded = e.ast != nil
				if def != nil {
					isDef = true
					defNum = def
				}
				if substNeeded {
					substStr = matchStr
				} else {
					matchRegexpStr = e.format.wildcardRegex()
					matchRegexp = sref{}
				}
			}

			if isDef {
				re.WriteByte('(')
				substInsertIdx++
				if isNum {
					if _, ok := p.numDefs[defNum.name]; !ok {
						p.numDefList = append(p.numDefList, defNum.name)
					}
					p.numDefs[defNum.name] = numVarMatch{defNum, curParen}
					p.ctx.globalNumVars[defNum.name] = defNum
				} else {
					if _, ok := p.varDefs[defName.str()]; !ok {
						p.varDefList = append(p.varDefList, defName.str())
					}
					p.varDefs[defName.str()] = curParen
					p.ctx.definedVars[defName.str()] = true
				}
				curParen++
			}
			if matchRegexpStr != "" {
				if matchRegexp.b != nil {
					if err := addRegex(matchRegexp); err != nil {
						return err
					}
				} else {
					nsub, _ := validateERE(matchRegexpStr)
					re.WriteString(matchRegexpStr)
					curParen += nsub
				}
			}
			if isDef {
				re.WriteByte(')')
			}
			if substNeeded {
				if paren, ok := p.varDefs[substStr.str()]; !isNum && ok {
					if paren < 1 || paren > backrefLimit {
						sm.printMessage(substStr.loc(), dkError, fmt.Sprintf("Can't back-reference more than %d variables", backrefLimit))
						return parseError{2}
					}
					if paren <= 9 {
						fmt.Fprintf(&re, "\\%d", paren)
					} else {
						fmt.Fprintf(&re, "\\g{%d}", paren)
					}
				} else {
					s := &substitution{ctx: p.ctx, from: substStr, insertIdx: substInsertIdx}
					if isNum {
						s.expr = expr
					}
					p.subs = append(p.subs, s)
				}
			}
			continue
		}
		fixedEnd := min(ps.find("{{", 1), ps.find("[[", 1))
		re.WriteString(regexEscape(ps.substr(0, fixedEnd).str()))
		ps = ps.from(fixedEnd)
	}
	if matchFullLinesHere {
		if !req.StrictWhitespace {
			re.WriteString(" *")
		}
		re.WriteByte('$')
	}
	p.regexStr = re.String()
	return nil
}

// findRegexVarEnd finds the "]]" closing a substitution block, skipping
// nested brackets and escapes. A stray ']' is a fatal error (exit 1).
func findRegexVarEnd(s sref, sm *srcMgr) (int, bool) {
	offset, depth := 0, 0
	for !s.empty() {
		if s.startsWith("]]") && depth == 0 {
			return offset, false
		}
		if s.front() == '\\' {
			s = s.from(2)
			offset += 2
			continue
		}
		switch s.front() {
		case '[':
			depth++
		case ']':
			if depth == 0 {
				sm.printMessage(s.loc(), dkError, `missing closing "]" for regex variable`)
				return 0, true
			}
			depth--
		}
		s = s.from(1)
		offset++
	}
	return npos, false
}

// matchResult is the outcome of matching a pattern against a buffer.
type matchResult struct {
	found    bool
	pos, len int     // relative to the searched buffer
	errs     []error // substitution errors (as *diagError)
}

// match searches buf for the pattern (Pattern::match).
func (p *pattern) match(buf sref) matchResult {
	if p.ty.kind == checkEOF {
		return matchResult{found: true, pos: buf.size()}
	}
	text := buf.str()
	if p.fixedStr != "" {
		var pos int
		if p.ignoreCase {
			pos = strings.Index(asciiLower(text), asciiLower(p.fixedStr))
		} else {
			pos = strings.Index(text, p.fixedStr)
		}
		if pos < 0 {
			return matchResult{}
		}
		return matchResult{found: true, pos: pos, len: len(p.fixedStr)}
	}

	re := p.compiled
	if len(p.subs) > 0 || re == nil {
		reStr := p.regexStr
		if len(p.subs) > 0 {
			if p.lineNumber != 0 {
				p.ctx.lineVar.setValue(bigInt(p.lineNumber), sref{}, false)
			}
			var b strings.Builder
			last := 0
			var errs []error
			for _, s := range p.subs {
				v, serrs := s.value()
				if len(serrs) > 0 {
					for _, e := range serrs {
						switch e := e.(type) {
						case overflowError:
							errs = append(errs, newDiagErr(s.from, "unable to substitute variable or numeric expression: overflow error"))
						case *undefVarError:
							errs = append(errs, newDiagErr(e.name, e.Error()))
						}
					}
					continue
				}
				b.WriteString(p.regexStr[last:s.insertIdx])
				b.WriteString(v)
				last = s.insertIdx
			}
			if len(errs) > 0 {
				return matchResult{errs: errs}
			}
			b.WriteString(p.regexStr[last:])
			reStr = b.String()
		}
		var err error
		re, err = compileERE(reStr, p.ignoreCase)
		if err != nil {
			return matchResult{}
		}
		if len(p.subs) == 0 {
			p.compiled = re
		}
	}
	m := re.matchASCII(text, buf.b.isASCII(buf.off, buf.end))
	if m == nil {
		return matchResult{}
	}
	for _, name := range p.varDefList {
		i := p.varDefs[name]
		s, e := 0, 0
		if 2*i+1 < len(m) && m[2*i] >= 0 {
			s, e = m[2*i], m[2*i+1]
		}
		p.ctx.globalVars[name] = strVal{val: text[s:e], where: buf.slice(s, e)}
	}
	skip := 0
	if p.ty.kind == checkEmpty {
		skip = 1
	}
	res := matchResult{found: true, pos: m[0] + skip, len: m[1] - m[0] - skip}
	for _, name := range p.numDefList {
		d := p.numDefs[name]
		i := d.paren
		s, e := 0, 0
		if 2*i+1 < len(m) && m[2*i] >= 0 {
			s, e = m[2*i], m[2*i+1]
		}
		val := d.v.format.valueFromString(text[s:e])
		if _, ok := p.ctx.globalNumVars[name]; !ok {
			p.ctx.globalNumVars[name] = d.v
		}
		d.v.setValue(val, buf.slice(s, e), true)
	}
	return res
}

// computeMatchDistance is the edit distance between the pattern text and
// the start of buf, used for "possible intended match" notes.
func (p *pattern) computeMatchDistance(buf string) int {
	example := p.fixedStr
	if example == "" {
		example = p.regexStr
	}
	prefix := buf[:min(len(example), len(buf))]
	if i := strings.IndexByte(prefix, '\n'); i >= 0 {
		prefix = prefix[:i]
	}
	return textdist.Levenshtein(prefix, example)
}

// asciiLower lowers ASCII letters only, keeping byte offsets intact.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = toLower(c)
	}
	return string(b)
}

func bigInt(n int) *big.Int { return big.NewInt(int64(n)) }
