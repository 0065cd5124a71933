package parse

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/otir-dev/otir/ir"
)

// The participle grammar of OTIR text. Each struct is one production; its
// field tags are the production's right-hand side. Terminals are the token
// types of lexer.go (Value, Int, BangType, ...) and quoted literals, which
// match a token's text. docs/parser.md gives the same grammar in EBNF.
//
// The AST keeps operands and types as the text of their tokens: types are
// interned by ir.ParseType's cache, and operand positions are recovered from
// the operation's Tokens only when a diagnostic needs them.

// File = TopLevel* EOF .
type File struct {
	Items []*TopLevel `parser:"@@*"`
}

// TopLevel is a pretty `module` or any operation.
type TopLevel struct {
	Module *PrettyModule `parser:"  @@"`
	Op     *Operation    `parser:"| @@"`
}

// PrettyModule = "module" ("attributes" AttrDict)? Region .
type PrettyModule struct {
	Pos   lexer.Position
	Attrs *AttrDict `parser:"'module' ( 'attributes' @@ )?"`
	Body  *Region   `parser:"@@"`
}

// Operation = (ResultName ("," ResultName)* "=")? OpBody .
type Operation struct {
	Tokens  []lexer.Token
	Results []string `parser:"( @(Value | ResultGroup) ( ',' @(Value | ResultGroup) )* '=' )?"`
	Body    OpBody   `parser:"@@"`

	// Filled by the builder: the IR operation, its operands' names and the
	// types the operation's syntax gives them (resolved in a later pass).
	op      *ir.Operation
	uses    []use
	regions []*Region // regions in IR order (pretty and generic forms alike)
	// late: operands are resolved after the regions, as MLIR does for the
	// generic form.
	late bool
	// prettyMod: a pretty module, whose text (for its trailing location)
	// ends at its region's closing brace, found once its operations are
	// built; modRegion is that region.
	prettyMod *Region
	// text locates the operation's text, for diagnostics after its tokens
	// are gone (int32s: there is one per operation).
	text struct {
		start, end int32 // offsets of the first token and just past the last
		line, col  int32 // of the first token
	}
}

// OpBody is the part of an operation after its results: the generic form or
// the pretty form (PrettyOp), which one mechanism parses for every op: the
// interpreter of the op's assembly format (ir.ParseFormat).
type OpBody interface{ opBody() }

// GenericOp = String "(" Values? ")" ("<" AttrDict ">")? ("(" Region ("," Region)* ")")? AttrDict? ":" FuncType .
//
// The properties <{...}> of MLIR's generic form are merged into the
// attributes (OTIR keeps every attribute in one dictionary).
type GenericOp struct {
	Name     OpName    `parser:"@@"`
	Operands []string  `parser:"'(' ( @Value ( ',' @Value )* )? ')'"`
	Props    *AttrDict `parser:"( '<' @@ '>' )?"`
	Regions  []*Region `parser:"( '(' @@ ( ',' @@ )* ')' )?"`
	Attrs    *AttrDict `parser:"@@?"`
	Sig      *FuncType `parser:"':' @@"`
}

// FuncType = Sig | "(" Types? ")" "->" (Type | "(" Types? ")") . A function
// type after ':' on one line is a single Sig token, split by the builder.
type FuncType struct {
	Pos   lexer.Position
	Sig   string   `parser:"(  @Sig"`
	Ins   []string `parser:" | '(' ( @(Ident | BangType) ( ',' @(Ident | BangType) )* )? ')' '->'"`
	Paren bool     `parser:"   ( @'('"`
	Outs  []string `parser:"     ( @(Ident | BangType) ( ',' @(Ident | BangType) )* )? ')'"`
	Out   string   `parser:"   | @(Ident | BangType) ) )"`
}

// Region = "{" BlockHeader? OpList "}" .
type Region struct {
	Pos    lexer.Position
	Header *BlockHeader `parser:"'{' @@?"`
	Body   *OpList      `parser:"@@ '}'"`

	// Filled by the builder: the block (nil for an empty region) and the
	// names and positions of its arguments, and where each argument's type
	// ends (a loc(...) may follow it; -1: not "%name: type").
	block    *ir.Block
	argNames []string
	argPos   []lexer.Position
	argEnd   []int
}

// BlockHeader = Caret ("(" (ArgDecl ("," ArgDecl)*)? ")")? ":" .
type BlockHeader struct {
	Pos   lexer.Position
	Label string     `parser:"@Caret"`
	Args  []*ArgDecl `parser:"( '(' ( @@ ( ',' @@ )* )? ')' )? ':'"`
}

// ArgDecl = Value ":" Type .
type ArgDecl struct {
	Tokens []lexer.Token
	Name   string `parser:"@Value ':'"`
	Type   string `parser:"@(Ident | BangType)"`
}

// AttrDict = "{" (AttrEntry ("," AttrEntry)*)? "}" .
type AttrDict struct {
	Entries []*AttrEntry `parser:"'{' ( @@ ( ',' @@ )* )? '}'"`
}

// AttrEntry = Name ("=" Attribute)? ; a name alone is a unit attribute.
type AttrEntry struct {
	Pos   lexer.Position
	Name  string     `parser:"@(Ident | String | OpOther)"`
	Value *Attribute `parser:"( '=' @@ )?"`
}

// Attribute is an attribute value, with an optional `: type` suffix.
type Attribute struct {
	Pos      lexer.Position
	Int      string      `parser:"(  @Int"`
	Float    string      `parser:" | @Float"`
	Bool     string      `parser:" | @( 'true' | 'false' )"`
	Str      string      `parser:" | @String"`
	Unit     bool        `parser:" | @'unit'"`
	Array    *ArrayLit   `parser:" | @@"`
	I64Array *DenseArray `parser:" | @@"`
	Dense    *DenseLit   `parser:" | 'dense' '<' @@ '>'"`
	Fn       *FuncType   `parser:" | @@"`
	Type     string      `parser:" | @(Ident | BangType) )"`
	Typed    string      `parser:"( ':' @(Ident | BangType) )?"`
}

// ArrayLit = "[" (Attribute ("," Attribute)*)? "]" .
type ArrayLit struct {
	Open  bool         `parser:"@'['"`
	Elems []*Attribute `parser:"( @@ ( ',' @@ )* )? ']'"`
}

// DenseArray = "array" "<" Ident (":" Int ("," Int)*)? ">" .
type DenseArray struct {
	Pos    lexer.Position
	Elem   string   `parser:"'array' '<' @Ident"`
	Values []string `parser:"( ':' @Int ( ',' @Int )* )? '>'"`
}

// DenseLit = DenseList | "[" (DenseLit ("," DenseLit)*)? "]" | Int | Float | "true" | "false" | String .
// The string is MLIR's hex form, dense<"0x...">.
// DenseList is a whole list as one token (see scanner.denseList), the usual
// case; the bracketed alternative reads the lists the lexer leaves in
// tokens.
type DenseLit struct {
	Pos    lexer.Position
	List   string      `parser:"(  @DenseList"`
	Open   bool        `parser:" | @'['"`
	Elems  []*DenseLit `parser:"   ( @@ ( ',' @@ )* )? ']'"`
	Scalar string      `parser:" | @(Int | Float | 'true' | 'false')"`
	Hex    string      `parser:" | @String )"`
}

func (*GenericOp) opBody() {}

// grammarOptions are shared by every parser built from this grammar.
func grammarOptions() []participle.Option {
	return []participle.Option{
		participle.Lexer(lexDef{}),
		// Commit to an alternative as soon as it has consumed a token: the
		// grammar is LL(1) by design, and errors then point at the token
		// that broke the alternative ("expected ':'").
		participle.UseLookahead(0),
		// An operation is in the generic form, or in the pretty form its
		// record's assembly format describes (PrettyOp, pretty.go), or an
		// unknown name.
		participle.Union[OpBody](&GenericOp{}, &PrettyOp{}, &UnknownOp{}),
	}
}

var (
	buildOnce sync.Once
	fileP     *participle.Parser[File]
	opP       *participle.Parser[Operation]
	attrP     *participle.Parser[Attribute]
	dictP     *participle.Parser[AttrDict]
)

// build makes both parsers, at the same time: building walks the grammar by
// reflection, about 3 ms each, a large part of a small file's parse.
func build() {
	buildOnce.Do(func() {
		done := make(chan struct{}, 2)
		go func() {
			defer func() { done <- struct{}{} }()
			opP = participle.MustBuild[Operation](grammarOptions()...)
		}()
		go func() {
			defer func() { done <- struct{}{} }()
			attrP = participle.MustBuild[Attribute](grammarOptions()...)
			dictP = participle.MustBuild[AttrDict](grammarOptions()...)
		}()
		fileP = participle.MustBuild[File](grammarOptions()...)
		<-done
		<-done
	})
}

// Prepare builds the grammar now, so that a tool can do it while it reads
// its input (go parse.Prepare()); Parse otherwise does it on first use.
func Prepare() { build() }

// fileParser is the parser of whole files; building walks the grammar by
// reflection, so it is done once, on first use.
func fileParser() *participle.Parser[File] {
	build()
	return fileP
}

// opParser parses the Operation production alone (for OpList).
func opParser() *participle.Parser[Operation] {
	build()
	return opP
}

// attrParser parses the Attribute production alone (for formats' $attr).
func attrParser() *participle.Parser[Attribute] {
	build()
	return attrP
}

// dictParser parses the AttrDict production alone (for formats' attr-dict).
func dictParser() *participle.Parser[AttrDict] {
	build()
	return dictP
}
