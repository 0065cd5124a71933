package lit

import "strings"

// Paths in RUN lines. LLVM's lit substitutes %s, %S, %t and the other
// built-in substitutions with the bare path (TestRunner.py,
// getDefaultSubstitutions and applySubstitutions: no quoting), so a path
// with a space, a quote, a ';' or '$(...)' breaks a test there, or runs a
// command, or makes "not cmd %s" pass because '%s' became two commands. The
// runner quotes such a path for the place it lands in (outside quotes,
// inside "...", inside '...'); a path with none of those characters is
// substituted exactly as lit does, so every ordinary command line is
// lit's.

// replaceQuoted replaces every key of substs in cmd, a bash command, with
// its value quoted for its place in the command (shellQuote), in one pass:
// at each position the first key of the list that starts there. A value is
// not searched for keys again, so a folder named "100%test" stays itself
// (lit's sequential replacement would expand its "%t").
func replaceQuoted(cmd string, substs []Subst) string {
	if !strings.Contains(cmd, "%") {
		return cmd
	}
	var b strings.Builder
	var lx shellLexer
	for i := 0; i < len(cmd); {
		if cmd[i] == '%' {
			if s, ok := substAt(cmd[i:], substs); ok {
				b.WriteString(shellQuote(s.Value, lx.context()))
				i += len(s.Key)
				continue
			}
		}
		n := lx.step(cmd[i:])
		b.WriteString(cmd[i : i+n])
		i += n
	}
	return b.String()
}

// substAt is the first of substs whose key starts s.
func substAt(s string, substs []Subst) (Subst, bool) {
	for _, sub := range substs {
		if strings.HasPrefix(s, sub.Key) {
			return sub, true
		}
	}
	return Subst{}, false
}

// quoteContext is where a word lands in a bash command.
type quoteContext int

const (
	unquoted     quoteContext = iota // also inside $(...) and `...`
	doubleQuoted                     // "..."
	singleQuoted                     // '...'
	ansiQuoted                       // $'...'
)

// shellQuote writes s so that bash reads it as the literal text s in
// context ctx, changing nothing when nothing needs it.
func shellQuote(s string, ctx quoteContext) string {
	switch ctx {
	case doubleQuoted:
		if !strings.ContainsAny(s, "\\\"$`") {
			return s
		}
		return strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(s)
	case singleQuoted:
		return strings.ReplaceAll(s, "'", `'\''`)
	case ansiQuoted:
		return strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s)
	}
	safe := true
	for i := 0; i < len(s) && safe; i++ {
		safe = shellSafe(s[i])
	}
	if safe && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellSafe reports whether bash reads byte c outside quotes as itself, in
// any position of a word.
func shellSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c >= 0x80:
		return true
	}
	return strings.IndexByte("_-./,:+@%=", c) >= 0
}

// shellLexer follows the quoting of a bash command far enough to know the
// context of each position: quotes, escapes, $(...), `...` and $'...'.
type shellLexer struct {
	stack []frame
}

type frame struct {
	ctx      quoteContext
	backtick bool // `...`: ends at the next backtick
	subst    bool // $(...): ends at its closing parenthesis
	parens   int  // open parentheses inside an unquoted frame
}

func (lx *shellLexer) top() *frame {
	if len(lx.stack) == 0 {
		lx.stack = append(lx.stack, frame{ctx: unquoted})
	}
	return &lx.stack[len(lx.stack)-1]
}

func (lx *shellLexer) context() quoteContext { return lx.top().ctx }

func (lx *shellLexer) push(f frame) { lx.stack = append(lx.stack, f) }

func (lx *shellLexer) pop() {
	if len(lx.stack) > 1 {
		lx.stack = lx.stack[:len(lx.stack)-1]
	}
}

// step reads the start of s (the rest of the command), updates the state
// and returns how many bytes it read (at least one).
func (lx *shellLexer) step(s string) int {
	f := lx.top()
	c := s[0]
	escaped := 1
	if len(s) > 1 {
		escaped = 2
	}
	switch f.ctx {
	case singleQuoted:
		if c == '\'' {
			lx.pop()
		}
		return 1
	case ansiQuoted:
		switch c {
		case '\\':
			return escaped
		case '\'':
			lx.pop()
		}
		return 1
	case doubleQuoted:
		switch {
		case c == '\\':
			return escaped
		case c == '"':
			lx.pop()
		case strings.HasPrefix(s, "$("):
			lx.push(frame{ctx: unquoted, subst: true})
			return 2
		case c == '`':
			lx.push(frame{ctx: unquoted, backtick: true})
		}
		return 1
	}
	switch {
	case c == '\\':
		return escaped
	case c == '\'':
		lx.push(frame{ctx: singleQuoted})
	case c == '"':
		lx.push(frame{ctx: doubleQuoted})
	case strings.HasPrefix(s, "$'"):
		lx.push(frame{ctx: ansiQuoted})
		return 2
	case strings.HasPrefix(s, "$("):
		lx.push(frame{ctx: unquoted, subst: true})
		return 2
	case c == '`' && f.backtick:
		lx.pop()
	case c == '`':
		lx.push(frame{ctx: unquoted, backtick: true})
	case c == '(':
		f.parens++
	case c == ')' && f.parens > 0:
		f.parens--
	case c == ')' && f.subst:
		lx.pop()
	}
	return 1
}
