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
// one of the pretty forms.
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

// BinaryOp = OpBinary Value "," Value ":" EwSig .
type BinaryOp struct {
	Name string `parser:"@OpBinary"`
	LHS  string `parser:"@Value ','"`
	RHS  string `parser:"@Value ':'"`
	Sig  *EwSig `parser:"@@"`
}

// UnaryOp = OpUnary Value ":" EwSig .
type UnaryOp struct {
	Name string `parser:"@OpUnary"`
	X    string `parser:"@Value ':'"`
	Sig  *EwSig `parser:"@@"`
}

// CmpOp = "otir.cmp" "kind" "(" Ident ")" Value "," Value ":" EwSig .
type CmpOp struct {
	Kind string `parser:"'otir.cmp' 'kind' '(' @Ident ')'"`
	LHS  string `parser:"@Value ','"`
	RHS  string `parser:"@Value ':'"`
	Sig  *EwSig `parser:"@@"`
}

// EwSig is the type annotation of an element-wise operation: a function
// type, or a list of types (one type for all operands and the result, or the
// operand types only).
type EwSig struct {
	Fn    *FuncType `parser:"  @@"`
	Types []string  `parser:"| @(Ident | BangType) ( ',' @(Ident | BangType) )*"`
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

// SelectOp = "otir.select" Value "," Value "," Value ":" FuncType .
type SelectOp struct {
	Operands []string  `parser:"'otir.select' @Value ',' @Value ',' @Value ':'"`
	Sig      *FuncType `parser:"@@"`
}

// ConvertOp = OpConvert Value ":" Type "->" Type .
type ConvertOp struct {
	Name string `parser:"@OpConvert"`
	X    string `parser:"@Value ':'"`
	From string `parser:"@(Ident | BangType) '->'"`
	To   string `parser:"@(Ident | BangType)"`
}

// ConstantOp = "otir.constant" Attribute .
type ConstantOp struct {
	Value *Attribute `parser:"'otir.constant' @@"`
}

// AxisOp = OpAxis "axis" "(" Int ")" .
type AxisOp struct {
	Name string `parser:"@OpAxis 'axis' '('"`
	Axis string `parser:"@Int ')'"`
}

// AllocOp = "otir.alloc" "(" ")" ":" Type .
type AllocOp struct {
	Type string `parser:"'otir.alloc' '(' ')' ':' @(Ident | BangType)"`
}

// DMAOp = "otir.dma_copy_async" Value "," Value ("," (Value | "[" Value "]"))? ":" DMASig .
type DMAOp struct {
	Src  string  `parser:"'otir.dma_copy_async' @Value ','"`
	Dst  string  `parser:"@Value"`
	Mask string  `parser:"( ',' ( @Value | '[' @Value ']' ) )? ':'"`
	Sig  *DMASig `parser:"@@"`
}

// DMASig = Sig | "(" Type "," Type ("," (Type | "[" Type "]"))? ")" "->" Type .
type DMASig struct {
	Pos    lexer.Position
	Sig    string `parser:"(  @Sig"`
	Src    string `parser:" | '(' @(Ident | BangType) ','"`
	Dst    string `parser:"   @(Ident | BangType)"`
	Mask   string `parser:"   ( ',' ( @(Ident | BangType) | '[' @(Ident | BangType) ']' ) )? ')' '->'"`
	Result string `parser:"   @(Ident | BangType) )"`
}

// StoreOp = "otir.store" Value "," Value ":" Type "," Type .
type StoreOp struct {
	Val     string `parser:"'otir.store' @Value ','"`
	Ptr     string `parser:"@Value ':'"`
	ValType string `parser:"@(Ident | BangType) ','"`
	PtrType string `parser:"@(Ident | BangType)"`
}

// AtomicOp = "otir.atomic_rmw" Value "," Value "," "kind" "(" Ident ")" ","
// "memory_order" "(" Ident ")" ":" Type "," Type "->" Type .
type AtomicOp struct {
	Ptr        string `parser:"'otir.atomic_rmw' @Value ','"`
	Val        string `parser:"@Value ','"`
	Kind       string `parser:"'kind' '(' @Ident ')' ','"`
	Order      string `parser:"'memory_order' '(' @Ident ')' ':'"`
	PtrType    string `parser:"@(Ident | BangType) ','"`
	ValType    string `parser:"@(Ident | BangType) '->'"`
	ResultType string `parser:"@(Ident | BangType)"`
}

// MatmulOp = "otir.matmul" Value "," Value "," Value ":" FuncType .
type MatmulOp struct {
	Operands []string  `parser:"'otir.matmul' @Value ',' @Value ',' @Value ':'"`
	Sig      *FuncType `parser:"@@"`
}

// TransposeOp = "otir.transpose" Value "," "permutation" "(" Ints? ")" ":" Type "->" Type .
type TransposeOp struct {
	X    string   `parser:"'otir.transpose' @Value ',' 'permutation' '('"`
	Perm []string `parser:"( @Int ( ',' @Int )* )? ')' ':'"`
	From string   `parser:"@(Ident | BangType) '->'"`
	To   string   `parser:"@(Ident | BangType)"`
}

// ExtractSliceOp = "otir.extract_slice" Value SliceBounds ":" Type "to" Type .
type ExtractSliceOp struct {
	Src    string       `parser:"'otir.extract_slice' @Value"`
	Bounds *SliceBounds `parser:"@@ ':'"`
	From   string       `parser:"@(Ident | BangType) 'to'"`
	To     string       `parser:"@(Ident | BangType)"`
}

// InsertSliceOp = "otir.insert_slice" Value "into" Value SliceBounds ":" Type "into" Type .
type InsertSliceOp struct {
	Src    string       `parser:"'otir.insert_slice' @Value 'into'"`
	Dst    string       `parser:"@Value"`
	Bounds *SliceBounds `parser:"@@ ':'"`
	From   string       `parser:"@(Ident | BangType) 'into'"`
	To     string       `parser:"@(Ident | BangType)"`
}

// SliceBounds = "[" (Value | Int) ("," (Value | Int))* "]" "[" Ints "]" "[" Ints "]" .
type SliceBounds struct {
	Offsets []string `parser:"'[' ( @(Value | Int) ( ',' @(Value | Int) )* )? ']'"`
	Sizes   []string `parser:"'[' ( @Int ( ',' @Int )* )? ']'"`
	Strides []string `parser:"'[' ( @Int ( ',' @Int )* )? ']'"`
}

// WaitOp = "otir.wait" "[" Values? "]" .
type WaitOp struct {
	Operands []string `parser:"'otir.wait' '[' ( @Value ( ',' @Value )* )? ']'"`
}

// ForOp = "scf.for" Value "=" Value "to" Value "step" Value
// ("iter_args" "(" IterArg ("," IterArg)* ")" "->" "(" Types ")")? Region .
type ForOp struct {
	IV    string     `parser:"'scf.for' @Value '='"`
	LB    string     `parser:"@Value 'to'"`
	UB    string     `parser:"@Value 'step'"`
	Step  string     `parser:"@Value"`
	Iters []*IterArg `parser:"( 'iter_args' '(' @@ ( ',' @@ )* ')'"`
	Types []string   `parser:"  '->' '(' @(Ident | BangType) ( ',' @(Ident | BangType) )* ')' )?"`
	Body  *Region    `parser:"@@"`
}

// IterArg = Value "=" Value .
type IterArg struct {
	Pos  lexer.Position
	Name string `parser:"@Value '='"`
	Init string `parser:"@Value"`
}

// IfOp = "scf.if" Value ("->" "(" Types? ")")? Region ("else" Region)? .
type IfOp struct {
	Cond  string   `parser:"'scf.if' @Value"`
	Types []string `parser:"( '->' '(' ( @(Ident | BangType) ( ',' @(Ident | BangType) )* )? ')' )?"`
	Then  *Region  `parser:"@@"`
	Else  *Region  `parser:"( 'else' @@ )?"`
}

// YieldOp = "scf.yield" (Value ("," Value)* ":" Type ("," Type)*)? .
type YieldOp struct {
	Operands []string `parser:"'scf.yield' ( @Value ( ',' @Value )*"`
	Types    []string `parser:"  ':' @(Ident | BangType) ( ',' @(Ident | BangType) )* )?"`
}

// NullaryOp = OpNullary .
type NullaryOp struct {
	Name string `parser:"@OpNullary"`
}

// KernelOp = "otir.kernel" Symbol "(" (ArgDecl ("," ArgDecl)*)? ")" ("attributes" AttrDict)? Region .
type KernelOp struct {
	Sym   string     `parser:"'otir.kernel' @Symbol"`
	Args  []*ArgDecl `parser:"'(' ( @@ ( ',' @@ )* )? ')'"`
	Attrs *AttrDict  `parser:"( 'attributes' @@ )?"`
	Body  *Region    `parser:"@@"`
}

// Region = "{" BlockHeader? OpList "}" .
type Region struct {
	Pos    lexer.Position
	Header *BlockHeader `parser:"'{' @@?"`
	Body   *OpList      `parser:"@@ '}'"`

	// Filled by the builder: the block (nil for an empty region) and the
	// names and positions of its arguments.
	block    *ir.Block
	argNames []string
	argPos   []lexer.Position
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
	Name  string     `parser:"@(Ident | String | OpBinary | OpUnary | OpConvert | OpAxis | OpNullary | OpOther)"`
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

func (*GenericOp) opBody()      {}
func (*BinaryOp) opBody()       {}
func (*UnaryOp) opBody()        {}
func (*CmpOp) opBody()          {}
func (*SelectOp) opBody()       {}
func (*ConvertOp) opBody()      {}
func (*ConstantOp) opBody()     {}
func (*AxisOp) opBody()         {}
func (*AllocOp) opBody()        {}
func (*DMAOp) opBody()          {}
func (*StoreOp) opBody()        {}
func (*AtomicOp) opBody()       {}
func (*MatmulOp) opBody()       {}
func (*TransposeOp) opBody()    {}
func (*ExtractSliceOp) opBody() {}
func (*InsertSliceOp) opBody()  {}
func (*WaitOp) opBody()         {}
func (*ForOp) opBody()          {}
func (*IfOp) opBody()           {}
func (*YieldOp) opBody()        {}
func (*NullaryOp) opBody()      {}
func (*KernelOp) opBody()       {}

// grammarOptions are shared by every parser built from this grammar.
func grammarOptions() []participle.Option {
	return []participle.Option{
		participle.Lexer(lexDef{}),
		// Commit to an alternative as soon as it has consumed a token: the
		// grammar is LL(1) by design, and errors then point at the token
		// that broke the alternative ("expected ':'").
		participle.UseLookahead(0),
		// Most frequent forms first: the union tries its members in order.
		participle.Union[OpBody](
			&BinaryOp{}, &ConstantOp{}, &CmpOp{}, &UnaryOp{}, &ConvertOp{}, &GenericOp{},
			&YieldOp{}, &ForOp{}, &IfOp{}, &SelectOp{}, &ExtractSliceOp{}, &InsertSliceOp{},
			&AxisOp{}, &AllocOp{}, &DMAOp{}, &WaitOp{}, &StoreOp{}, &AtomicOp{}, &MatmulOp{},
			&TransposeOp{}, &NullaryOp{}, &KernelOp{}, &UnknownOp{},
		),
	}
}

var (
	buildOnce sync.Once
	fileP     *participle.Parser[File]
	opP       *participle.Parser[Operation]
)

// build makes both parsers, at the same time: building walks the grammar by
// reflection, about 3 ms each, a large part of a small file's parse.
func build() {
	buildOnce.Do(func() {
		done := make(chan struct{})
		go func() {
			defer close(done)
			opP = participle.MustBuild[Operation](grammarOptions()...)
		}()
		fileP = participle.MustBuild[File](grammarOptions()...)
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
