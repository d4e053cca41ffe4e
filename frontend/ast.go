package frontend

import (
	"math/big"

	"github.com/tri-lang/tri/diag"
)

// File is everything tri takes from one source file: the @jit functions
// (kernels and helpers alike), module-level constexpr globals, the import
// aliases in force, and host functions that autotune configs may call.
type File struct {
	Name    string // the path as given; positions use it
	Src     []byte
	Funcs   []*Func   // every @jit function, in source order
	Globals []*Global // module-level NAME = tl.constexpr(...) or NAME = literal
	// Aliases maps a local name to the module it stands for: "tl" ->
	// "triton.language", "triton" -> "triton", "libdevice" ->
	// "triton.language.extra.libdevice". Names imported from a module
	// ("from triton.language import arange") map to "triton.language.arange".
	Aliases map[string]string
	// Host holds the top-level host definitions that parsed, by name: the
	// functions that are not @jit and the assignments to plain names (the
	// last binding of a name wins), for autotune config builders, pruning
	// functions and heuristics.
	Host map[string]*HostFunc
	// HostStmts is every top-level host definition in source order: those
	// of Host, the earlier bindings of their names, and the module-level if
	// statements whose arms only assign (hostif.go). Host code evaluated for
	// a decorator runs those above it (HostBindings), as Python would.
	HostStmts []*HostFunc
	// Getters maps the name of a top-level host function that imports the
	// first Triton module of a list that exists and returns its attribute
	// named by its argument (getter.go) to that list of modules.
	Getters map[string][]string
	// Scope is every top-level binding of a name, in source order, with
	// the if/try arm around it (see scope.go); names are looked up through
	// it (Lookup), as Python would after importing the file.
	Scope []*Binding
	// mod is the file as a module of a Loader; nil for a file parsed alone.
	mod *module
	// body is every top-level statement in source order, those inside the
	// arms of module-level if and try statements with their arm, and text
	// the normalized source they are cut from: what the module's
	// evaluation runs (exec.go).
	body []*chunk
	text string
}

// Func returns the @jit function the name stands for in f (where a module
// level if or try defines it twice, the one that runs; it may come from
// another module by import), or nil.
func (f *File) Func(name string) *Func {
	if s, d := f.Lookup(name); d == nil && s.Kind == SymFunc {
		return s.Func
	}
	for _, fn := range f.Funcs {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

// Global is a module-level binding a kernel may read: BLOCK =
// tl.constexpr(128) or a plain literal such as EPS = 1e-5.
type Global struct {
	Name      string
	Pos       diag.Pos
	Value     Expr
	Constexpr bool // wrapped in tl.constexpr(...) or annotated : tl.constexpr
	// Stale is set where Value, evaluated after the whole module ran (as
	// sema evaluates it), would read a name the module bound again after
	// this binding: the value must come from host code run in order, or
	// Stale is the error, placed at Pos.
	Stale string
	// HostFinal is set with Stale where the binding stands after a
	// module-level if whose condition tri cannot evaluate: the name's
	// value is what the module's host code, run in order, leaves in it.
	HostFinal bool
}

// HostFunc is a top-level non-@jit function, or a top-level assignment to a
// name, kept as source so that autotune config builders can be evaluated
// later.
type HostFunc struct {
	Name   string
	Pos    diag.Pos // of the def keyword, or of the assignment's first line
	Source string   // the statement's text, from Pos on, decorators left out
	Assign bool     // an assignment (NAME = ...), not a def
	// Binds lists the names an if statement's arms assign (hostif.go);
	// empty for a def or an assignment, which bind Name.
	Binds []string
}

// Func is one @jit function.
type Func struct {
	Name   string
	File   *File    // the file that defines it, where its names resolve
	Pos    diag.Pos // of the def keyword
	Params []*Param
	// Vararg is the name of a *args parameter ("" if none): the positional
	// arguments past the first NumPositional, as a tuple. Triton takes it
	// in a @jit helper (def consume(*dims): return dims[0]).
	Vararg        string
	NumPositional int // the parameters before *args; the rest are keyword-only
	Body          []Stmt
	Decorators    []*Decorator // outermost first, as written
	// DoNotSpecialize lists parameters named in
	// @triton.jit(do_not_specialize=[...]) (names; indices are converted).
	DoNotSpecialize []string
	// Closure maps the names of the @jit functions defined in the same
	// host function as this one (or in one around it), and bound nowhere
	// else there, to them: Triton compiles a kernel defined inside a
	// function with that function's cells (its closure) beside the
	// module's globals, so a test's kernel calls the helpers its test
	// defines. nil for a function defined at module level.
	Closure map[string]*Func
	// ConstexprFunction marks a host function under
	// @triton.constexpr_function: kernels call it on compile-time values
	// and get a compile-time value back. It is not among File.Funcs.
	ConstexprFunction bool
}

// Param is one parameter of a @jit function.
type Param struct {
	Name       string
	Pos        diag.Pos
	Annotation Expr // nil if none
	Constexpr  bool // annotated tl.constexpr (or triton.language.constexpr)
	// Type is the type an annotation naming a dtype gives the parameter, as
	// Triton's jit.py normalizes it ("fp16", "u8", "i32", "*fp32"); "" for
	// none or for an annotation Triton ignores (torch.Tensor).
	Type    string
	Default Expr // nil if none
}

// Decorator is one decorator of a @jit function: its resolved dotted name
// ("triton.jit", "triton.autotune", "triton.heuristics") and, if it is a
// call, its arguments.
type Decorator struct {
	Pos      diag.Pos
	Name     string // resolved through File.Aliases; "" if not a name
	Call     bool   // written as a call: @triton.jit(...)
	Args     []Expr
	Keywords []*Keyword
	// ArgsText is a call's argument list as written, from "(" to the
	// matching ")", and ArgsPos the place of its "(". launch evaluates the
	// arguments of autotune and heuristics from this text with gpython's
	// interpreter, which also runs the comprehensions and lambdas that tri's
	// AST does not keep. Empty if not a call (or not found in the text).
	ArgsText string
	ArgsPos  diag.Pos
}

// Node is implemented by every statement and expression.
type Node interface {
	Position() diag.Pos
}

// Stmt is a statement.
type Stmt interface {
	Node
	stmtNode()
}

// Expr is an expression.
type Expr interface {
	Node
	exprNode()
}

// At is embedded in every node; it holds the node's start position.
type At struct{ Pos diag.Pos }

// Position returns the node's start.
func (a At) Position() diag.Pos { return a.Pos }

// Statements.
type (
	// Assign is Targets[0] = Targets[1] = ... = Value. A target is a Name,
	// a Tuple of targets, an Attribute or a Subscript.
	Assign struct {
		At
		Targets []Expr
		Value   Expr
		// Constexpr is set for NAME: tl.constexpr = expr inside a kernel.
		Constexpr bool
		// Annotation is the annotation of an annotated assignment, if any.
		Annotation Expr
	}
	// AugAssign is Target Op= Value, with Op as written without "=" ("+", "//").
	AugAssign struct {
		At
		Target Expr
		Op     string
		Value  Expr
	}
	// ExprStmt is an expression evaluated for its effect.
	ExprStmt struct {
		At
		X Expr
	}
	// If is if/elif/else; elif chains are nested Ifs in Else.
	If struct {
		At
		Cond Expr
		Then []Stmt
		Else []Stmt
	}
	// For is for Target in Iter: Body.
	For struct {
		At
		Target Expr
		Iter   Expr
		Body   []Stmt
		Else   []Stmt // kept so sema can reject it
	}
	// While is while Cond: Body.
	While struct {
		At
		Cond Expr
		Body []Stmt
		Else []Stmt
	}
	// Return returns Value (nil for a bare return).
	Return struct {
		At
		Value Expr
	}
	// Pass does nothing.
	Pass struct{ At }
	// Break leaves the innermost loop.
	Break struct{ At }
	// Continue starts the next iteration.
	Continue struct{ At }
	// Assert is assert Test, Msg.
	Assert struct {
		At
		Test Expr
		Msg  Expr
	}
	// Unsupported is a statement kind tri does not handle (with, try,
	// raise, global, nested def, ...). It carries a description so sema can
	// report it only if it is reached.
	Unsupported struct {
		At
		What string
	}
)

// Expressions.
type (
	// Name is an identifier.
	Name struct {
		At
		ID string
	}
	// Const is a literal: int, float, string, bool, None or Ellipsis.
	Const struct {
		At
		Kind  ConstKind
		Int   *big.Int // ConstInt
		Float float64  // ConstFloat
		Str   string   // ConstStr
		Bool  bool     // ConstBool
	}
	// Binary is X Op Y with Op as written: + - * / // % ** << >> & | ^ @.
	Binary struct {
		At
		Op   string
		X, Y Expr
	}
	// Unary is Op X with Op one of "-", "+", "~", "not".
	Unary struct {
		At
		Op string
		X  Expr
	}
	// BoolOp is Values[0] Op Values[1] ... with Op "and" or "or".
	BoolOp struct {
		At
		Op     string
		Values []Expr
	}
	// Compare is a chained comparison: Left Ops[0] Rights[0] Ops[1] ...
	// Ops are "<", "<=", ">", ">=", "==", "!=", "is", "is not", "in", "not in".
	Compare struct {
		At
		Left   Expr
		Ops    []string
		Rights []Expr
	}
	// Call is Func(Args..., Keywords...).
	Call struct {
		At
		Func     Expr
		Args     []Expr
		Keywords []*Keyword
	}
	// Attribute is X.Name.
	Attribute struct {
		At
		X    Expr
		Name string
	}
	// Subscript is X[Index]; Index is an expression, a Slice, or a Tuple of
	// those (x[:, None]).
	Subscript struct {
		At
		X     Expr
		Index Expr
	}
	// Slice is lo:hi:step inside a subscript; each part may be nil.
	Slice struct {
		At
		Lo, Hi, Step Expr
	}
	// Tuple is (a, b, ...).
	Tuple struct {
		At
		Elts []Expr
	}
	// List is [a, b, ...].
	List struct {
		At
		Elts []Expr
	}
	// Dict is {k: v, ...}; a nil key stands for **v, a dict unpacked into
	// it.
	Dict struct {
		At
		Keys, Values []Expr
	}
	// IfExp is Then if Cond else Else.
	IfExp struct {
		At
		Cond, Then, Else Expr
	}
	// Lambda is lambda Params: Body.
	Lambda struct {
		At
		Params []string
		Body   Expr
	}
	// FString is an f-string, with the strings implicitly joined to it:
	// literal text and replacement fields in order.
	FString struct {
		At
		Parts []FStringPart
	}
	// Starred is *X in a call's arguments.
	Starred struct {
		At
		X Expr
	}
	// BadExpr is an expression kind tri does not handle (comprehensions,
	// sets, yield, ...), kept so sema can report it only if reached.
	BadExpr struct {
		At
		What string
		// Unpacked is the dict of a **kwargs argument (What "**kwargs
		// argument"), which a launch line unpacks; nil otherwise.
		Unpacked Expr
		// Target and Value are set for the walrus operator, Target :=
		// Value, which module code evaluates and kernels do not.
		Target *Name
		Value  Expr
		// Comp is a list comprehension (What "list comprehension"), which
		// kernels evaluate over a tuple as Triton's code generator does;
		// nil for other kinds.
		Comp *ListComp
	}
)

// ListComp is [Elt for Target in Iter if Ifs...]; More is set where the
// comprehension has further for clauses, which Triton refuses.
type ListComp struct {
	Elt, Target, Iter Expr
	Ifs               []Expr
	More              bool
}

// FStringPart is literal text (X nil) or a replacement field {X!Conv:Spec}.
type FStringPart struct {
	Lit  string
	X    Expr
	Conv string // "", "r", "s" or "a"
	Spec string // the format spec, as written
}

// Keyword is name=value in a call.
type Keyword struct {
	Pos   diag.Pos
	Name  string
	Value Expr
}

// ConstKind says which field of a Const holds its value.
type ConstKind int

// Kinds of literal.
const (
	ConstInt ConstKind = iota
	ConstFloat
	ConstStr
	ConstBool
	ConstNone
	ConstEllipsis
)

func (*Assign) stmtNode()      {}
func (*AugAssign) stmtNode()   {}
func (*ExprStmt) stmtNode()    {}
func (*If) stmtNode()          {}
func (*For) stmtNode()         {}
func (*While) stmtNode()       {}
func (*Return) stmtNode()      {}
func (*Pass) stmtNode()        {}
func (*Break) stmtNode()       {}
func (*Continue) stmtNode()    {}
func (*Assert) stmtNode()      {}
func (*Unsupported) stmtNode() {}

func (*Name) exprNode()      {}
func (*Const) exprNode()     {}
func (*Binary) exprNode()    {}
func (*Unary) exprNode()     {}
func (*BoolOp) exprNode()    {}
func (*Compare) exprNode()   {}
func (*Call) exprNode()      {}
func (*Attribute) exprNode() {}
func (*Subscript) exprNode() {}
func (*Slice) exprNode()     {}
func (*Tuple) exprNode()     {}
func (*List) exprNode()      {}
func (*Dict) exprNode()      {}
func (*IfExp) exprNode()     {}
func (*Lambda) exprNode()    {}
func (*Starred) exprNode()   {}
func (*FString) exprNode()   {}
func (*BadExpr) exprNode()   {}
