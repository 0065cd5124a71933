package filecheck

import (
	"fmt"
	"math/big"
)

// Parsing of numeric substitution blocks ([[#%fmt,VAR:expr]]), after
// LLVM's Pattern::parseNumericSubstitutionBlock and helpers. Every error is
// a *diagError pointing into the check text.

// parseNumericVariableDefinition parses the VAR in [[#VAR:...]].
func (c *patternContext) parseNumericVariableDefinition(expr sref, lineNumber int, format exprFormat) (*numVar, error) {
	props, err := parseVariable(&expr)
	if err != nil {
		return nil, err
	}
	name := props.name
	if props.isPseudo {
		return nil, newDiagErr(name, "definition of pseudo numeric variable unsupported")
	}
	if c.definedVars[name.str()] {
		return nil, newDiagErr(name, fmt.Sprintf("string variable with name '%s' already exists", name.str()))
	}
	expr = expr.ltrim(spaceChars)
	if !expr.empty() {
		return nil, newDiagErr(expr, "unexpected characters after numeric variable name")
	}
	if v, ok := c.globalNumVars[name.str()]; ok {
		if v.format != format {
			return nil, newDiagErr(expr, "format different from previous variable definition")
		}
		return v, nil
	}
	return &numVar{name: name.str(), format: format, defLine: lineNumber}, nil
}

// parseNumericVariableUse resolves a use of a numeric variable.
func (c *patternContext) parseNumericVariableUse(name sref, isPseudo bool, lineNumber int) (exprAST, error) {
	if isPseudo && name.str() != "@LINE" {
		return nil, newDiagErr(name, fmt.Sprintf("invalid pseudo numeric variable '%s'", name.str()))
	}
	v, ok := c.globalNumVars[name.str()]
	if !ok {
		// Uses of undefined variables are reported when matching.
		v = &numVar{name: name.str(), format: exprFormat{kind: fmtUnsigned}}
		c.globalNumVars[name.str()] = v
	}
	if v.defLine != 0 && lineNumber != 0 && v.defLine == lineNumber {
		return nil, newDiagErr(name, fmt.Sprintf("numeric variable '%s' defined earlier in the same CHECK directive", name.str()))
	}
	return &numVarUse{s: name, v: v}, nil
}

// parseNumericOperand parses a literal, variable, call or parenthesized
// expression at the front of *expr.
func (c *patternContext) parseNumericOperand(expr *sref, ao allowedOperand, maybeInvalidConstraint bool, lineNumber int) (exprAST, error) {
	if expr.startsWith("(") {
		if ao != aoAny {
			return nil, newDiagErr(*expr, "parenthesized expression not permitted here")
		}
		return c.parseParenExpr(expr, lineNumber)
	}
	if ao == aoLineVar || ao == aoAny {
		save := *expr
		props, err := parseVariable(expr)
		if err == nil {
			if expr.ltrim(spaceChars).startsWith("(") {
				if ao != aoAny {
					return nil, newDiagErr(props.name, "unexpected function call")
				}
				return c.parseCallExpr(expr, props.name, lineNumber)
			}
			return c.parseNumericVariableUse(props.name, props.isPseudo, lineNumber)
		}
		if ao == aoLineVar {
			return nil, err
		}
		*expr = save
	}
	save := *expr
	neg := expr.consumeFront("-")
	radix := 0
	if ao == aoLegacyLiteral {
		radix = 10
	}
	if v, ok := consumeInteger(expr, radix); ok {
		if neg {
			v.Neg(v)
		}
		return &exprLiteral{s: save.dropBack(expr.size()), v: v}, nil
	}
	*expr = save
	what := "invalid "
	if maybeInvalidConstraint {
		what += "matching constraint or "
	}
	return nil, newDiagErr(save, what+"operand format")
}

func (c *patternContext) parseParenExpr(expr *sref, lineNumber int) (exprAST, error) {
	*expr = expr.ltrim(spaceChars)
	expr.consumeFront("(")
	*expr = expr.ltrim(spaceChars)
	if expr.empty() {
		return nil, newDiagErr(*expr, "missing operand in expression")
	}
	sub, err := c.parseNumericOperand(expr, aoAny, false, lineNumber)
	*expr = expr.ltrim(spaceChars)
	for err == nil && !expr.empty() && !expr.startsWith(")") {
		orig := *expr
		sub, err = c.parseBinop(orig, expr, sub, false, lineNumber)
		*expr = expr.ltrim(spaceChars)
	}
	if err != nil {
		return nil, err
	}
	if !expr.consumeFront(")") {
		return nil, newDiagErr(*expr, "missing ')' at end of nested expression")
	}
	return sub, nil
}

// parseBinop parses "<op> operand" after left; exprStart is where the whole
// binary expression text begins.
func (c *patternContext) parseBinop(exprStart sref, rest *sref, left exprAST, legacy bool, lineNumber int) (exprAST, error) {
	*rest = rest.ltrim(spaceChars)
	if rest.empty() {
		return left, nil
	}
	opLoc := rest.loc()
	op := rest.front()
	*rest = rest.dropFront(1)
	var f binopFunc
	switch op {
	case '+':
		f = binops["add"]
	case '-':
		f = binops["sub"]
	default:
		return nil, newDiagErrAt(opLoc, fmt.Sprintf("unsupported operation '%c'", op))
	}
	*rest = rest.ltrim(spaceChars)
	if rest.empty() {
		return nil, newDiagErr(*rest, "missing operand in expression")
	}
	ao := aoAny
	if legacy {
		ao = aoLegacyLiteral
	}
	right, err := c.parseNumericOperand(rest, ao, false, lineNumber)
	if err != nil {
		return nil, err
	}
	s := exprStart.dropBack(rest.size())
	return &binaryOp{s: s, op: f, l: left, r: right}, nil
}

func (c *patternContext) parseCallExpr(expr *sref, fn sref, lineNumber int) (exprAST, error) {
	*expr = expr.ltrim(spaceChars)
	f, ok := binops[fn.str()]
	if !ok {
		return nil, newDiagErr(fn, fmt.Sprintf("call to undefined function '%s'", fn.str()))
	}
	expr.consumeFront("(")
	*expr = expr.ltrim(spaceChars)
	var args []exprAST
	for !expr.empty() && !expr.startsWith(")") {
		if expr.startsWith(",") {
			return nil, newDiagErr(*expr, "missing argument")
		}
		outer := *expr
		arg, err := c.parseNumericOperand(expr, aoAny, false, lineNumber)
		for err == nil && !expr.empty() {
			*expr = expr.ltrim(spaceChars)
			if expr.startsWith(",") || expr.startsWith(")") {
				break
			}
			arg, err = c.parseBinop(outer, expr, arg, false, lineNumber)
		}
		if err != nil {
			return nil, err
		}
		args = append(args, arg)
		*expr = expr.ltrim(spaceChars)
		if !expr.consumeFront(",") {
			break
		}
		*expr = expr.ltrim(spaceChars)
		if expr.startsWith(")") {
			return nil, newDiagErr(*expr, "missing argument")
		}
	}
	if !expr.consumeFront(")") {
		return nil, newDiagErr(*expr, "missing ')' at end of call expression")
	}
	if len(args) == 2 {
		return &binaryOp{s: *expr, op: f, l: args[0], r: args[1]}, nil
	}
	return nil, newDiagErr(fn, fmt.Sprintf("function '%s' takes 2 arguments but %d given", fn.str(), len(args)))
}

// parseNumericSubstitutionBlock parses the text of [[#...]] (without the
// '#'). It returns the expression and the variable it defines, if any.
func (c *patternContext) parseNumericSubstitutionBlock(expr sref, legacy bool, lineNumber int) (*expression, *numVar, error) {
	var explicit exprFormat
	precision := 0
	fmtEnd := expr.findByte(',')
	fnStart := expr.findByte('(')
	if fmtEnd != npos && fmtEnd < fnStart {
		fmtExpr := expr.takeFront(fmtEnd)
		expr = expr.from(fmtEnd + 1)
		fmtExpr = fmtExpr.trim(spaceChars)
		if !fmtExpr.consumeFront("%") {
			return nil, nil, newDiagErr(fmtExpr, "invalid matching format specification in expression")
		}
		altLoc := fmtExpr.loc()
		alt := fmtExpr.consumeFront("#")
		if fmtExpr.consumeFront(".") {
			v, ok := consumeInteger(&fmtExpr, 10)
			if !ok || !v.IsInt64() || v.Int64() > 1<<31 {
				return nil, nil, newDiagErr(fmtExpr, "invalid precision in format specifier")
			}
			precision = int(v.Int64())
		}
		if !fmtExpr.empty() {
			fmtLoc := fmtExpr.loc()
			switch fmtExpr.front() {
			case 'u':
				explicit = exprFormat{kind: fmtUnsigned, precision: precision}
			case 'd':
				explicit = exprFormat{kind: fmtSigned, precision: precision}
			case 'x':
				explicit = exprFormat{kind: fmtHexLower, precision: precision, alt: alt}
			case 'X':
				explicit = exprFormat{kind: fmtHexUpper, precision: precision, alt: alt}
			default:
				return nil, nil, newDiagErrAt(fmtLoc, "invalid format specifier in expression")
			}
			fmtExpr = fmtExpr.dropFront(1)
		}
		if alt && explicit.kind != fmtHexLower && explicit.kind != fmtHexUpper {
			return nil, nil, newDiagErrAt(altLoc, "alternate form only supported for hex values")
		}
		fmtExpr = fmtExpr.ltrim(spaceChars)
		if !fmtExpr.empty() {
			return nil, nil, newDiagErr(fmtExpr, "invalid matching format specification in expression")
		}
	}

	defEnd := expr.findByte(':')
	var defExpr sref
	if defEnd != npos {
		defExpr = expr.takeFront(defEnd)
		expr = expr.from(defEnd + 1)
	}

	expr = expr.ltrim(spaceChars)
	hasConstraint := expr.consumeFront("==")
	expr = expr.ltrim(spaceChars)
	var ast exprAST
	if expr.empty() {
		if hasConstraint {
			return nil, nil, newDiagErr(expr, "empty numeric expression should not have a constraint")
		}
	} else {
		expr = expr.rtrim(spaceChars)
		outer := expr
		ao := aoAny
		if legacy {
			ao = aoLineVar
		}
		res, err := c.parseNumericOperand(&expr, ao, !hasConstraint, lineNumber)
		for err == nil && !expr.empty() {
			res, err = c.parseBinop(outer, &expr, res, legacy, lineNumber)
			if err == nil && legacy && !expr.empty() {
				return nil, nil, newDiagErr(expr, fmt.Sprintf("unexpected characters at end of expression '%s'", expr.str()))
			}
		}
		if err != nil {
			return nil, nil, err
		}
		ast = res
	}

	var format exprFormat
	if explicit.kind != fmtNone {
		format = explicit
	} else if ast != nil {
		f, errs := ast.implicitFormat()
		if len(errs) > 0 {
			return nil, nil, errList(errs)
		}
		format = f
	}
	if format.kind == fmtNone {
		format = exprFormat{kind: fmtUnsigned, precision: precision}
	}
	e := &expression{ast: ast, format: format}

	var def *numVar
	if defEnd != npos {
		defExpr = defExpr.ltrim(spaceChars)
		v, err := c.parseNumericVariableDefinition(defExpr, lineNumber, format)
		if err != nil {
			return nil, nil, err
		}
		def = v
	}
	return e, def, nil
}

// evalToString evaluates e in its format; errors are undefined variables
// and overflows.
func (e *expression) evalToString() (string, []error) {
	v, errs := e.ast.eval()
	if len(errs) > 0 {
		return "", errs
	}
	s, err := e.format.matchingString(v)
	if err != nil {
		return "", []error{err}
	}
	return s, nil
}

// evalValue evaluates e to a number.
func (e *expression) evalValue() (*big.Int, []error) { return e.ast.eval() }
