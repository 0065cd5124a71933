package ir

import (
	"strconv"
	"strings"
	"sync"
)

// LocKind is the kind of an MLIR location.
type LocKind uint8

const (
	LocFile     LocKind = iota // "file":line:col
	LocUnknown                 // unknown
	LocName                    // "name" or "name"(child)
	LocCallSite                // callsite(callee at caller)
	LocFused                   // fused[a, b] or fused<meta>[a, b]
	LocRange                   // "file":line:col to line:col (MLIR's FileLineColRange)
)

// Loc is an MLIR location read from the input that is not a plain
// "file":line:col: a name, call site, fused or unknown location (and the
// locations nested in it). Locations hold one only when the input wrote one.
type Loc struct {
	Kind LocKind
	// Name is the file of a file location or range, or the name of a name
	// location.
	Name      string
	Line, Col int
	// EndLine and EndCol end a range (a range that ends where it starts is
	// a file location).
	EndLine, EndCol int
	// Meta is a fused location's metadata attribute, as written.
	Meta string
	// Locs are a name location's child (none for unknown), a call site's
	// callee and caller, or the fused locations.
	Locs []*Loc
}

// String prints the location as mlir-opt writes it inside loc(...).
func (l *Loc) String() string {
	var sb strings.Builder
	l.write(&sb)
	return sb.String()
}

func (l *Loc) write(sb *strings.Builder) {
	switch l.Kind {
	case LocFile, LocRange:
		sb.WriteString(QuoteString(l.Name))
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(l.Line))
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(l.Col))
		if l.Kind == LocFile {
			break
		}
		// As mlir-opt: "f":1:2 to 3:4, or "f":1:2 to :4 on one line.
		sb.WriteString(" to ")
		if l.EndLine != l.Line {
			sb.WriteString(strconv.Itoa(l.EndLine))
		}
		sb.WriteByte(':')
		sb.WriteString(strconv.Itoa(l.EndCol))
	case LocUnknown:
		sb.WriteString("unknown")
	case LocName:
		sb.WriteString(QuoteString(l.Name))
		if len(l.Locs) == 1 && l.Locs[0].Kind != LocUnknown {
			sb.WriteByte('(')
			l.Locs[0].write(sb)
			sb.WriteByte(')')
		}
	case LocCallSite:
		sb.WriteString("callsite(")
		l.Locs[0].write(sb)
		sb.WriteString(" at ")
		l.Locs[1].write(sb)
		sb.WriteByte(')')
	case LocFused:
		sb.WriteString("fused")
		if l.Meta != "" {
			sb.WriteByte('<')
			sb.WriteString(l.Meta)
			sb.WriteByte('>')
		}
		sb.WriteByte('[')
		if len(l.Locs) == 0 {
			sb.WriteString("unknown") // as mlir-opt: fused<"m">[unknown]
		}
		for i, c := range l.Locs {
			if i > 0 {
				sb.WriteString(", ")
			}
			c.write(sb)
		}
		sb.WriteByte(']')
	}
}

// Shown is the file location a diagnostic at l shows, as mlir-opt finds
// it (the first file location of a walk of l): a file location itself, a
// range's start, a name location's child, a call site's callee or else its
// caller, a fused location's first location that has one.
func (l *Loc) Shown() (Location, bool) {
	switch l.Kind {
	case LocFile, LocRange:
		return Location{File: l.Name, Line: l.Line, Col: l.Col}, true
	case LocName, LocCallSite, LocFused:
		for _, c := range l.Locs {
			if s, ok := c.Shown(); ok {
				return s, true
			}
		}
	}
	return Location{}, false
}

// CallSite is the call site whose callers a diagnostic at l lists (as
// "called from" notes, in mlir-opt): l itself, a name location's child's,
// or a fused location's first; nil when there is none.
func (l *Loc) CallSite() *Loc {
	switch l.Kind {
	case LocCallSite:
		return l
	case LocName:
		if len(l.Locs) == 1 {
			return l.Locs[0].CallSite()
		}
	case LocFused:
		for _, c := range l.Locs {
			if cs := c.CallSite(); cs != nil {
				return cs
			}
		}
	}
	return nil
}

// locTable numbers the locations other than plain file locations, each
// distinct one (by its text) once.
var locTable struct {
	sync.Mutex
	locs []*Loc
	ids  map[string]int
}

// LocationOf makes the Location of an MLIR location: a file location is a
// plain Location; any other is numbered in a table (Col is minus its number).
func LocationOf(l *Loc) Location {
	if l.Kind == LocFile && l.Line > 0 && l.Col >= 0 {
		return Location{File: l.Name, Line: l.Line, Col: l.Col}
	}
	key := l.String()
	locTable.Lock()
	defer locTable.Unlock()
	id, ok := locTable.ids[key]
	if !ok {
		if locTable.ids == nil {
			locTable.ids = map[string]int{}
		}
		locTable.locs = append(locTable.locs, l)
		id = len(locTable.locs)
		locTable.ids[key] = id
	}
	return Location{Col: -id}
}

// MLIR is the location the input wrote, when it is not a plain file
// location, or nil.
func (l Location) MLIR() *Loc {
	if l.Col >= 0 {
		return nil
	}
	locTable.Lock()
	defer locTable.Unlock()
	if -l.Col > len(locTable.locs) {
		return nil
	}
	return locTable.locs[-l.Col-1]
}

// Shown is the file location diagnostics show for l, as mlir-opt finds it
// (see Loc.Shown): l itself when it is a plain location, the zero Location
// when it holds none.
func (l Location) Shown() Location {
	if m := l.MLIR(); m != nil {
		s, _ := m.Shown()
		return s
	}
	return l
}
