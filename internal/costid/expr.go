package costid

import (
	"math"
	"strconv"

	"hostplan/internal/present/num"
)

// Expr is an arithmetic expression over drivers: numbers, drivers, the four
// operations, IfPositive and Min. Build it with Num, Ref, Add, Sub, Mul,
// Div, IfPositive and Min; the zero Expr is the number 0.
type Expr struct {
	op   op
	k    float64 // opNum
	d    Driver  // opRef
	args []Expr
}

type op uint8

const (
	opNum op = iota
	opRef
	opAdd
	opSub
	opMul
	opDiv
	opIf
	opMin
	opConst
)

// Num is the number k.
func Num(k float64) Expr { return Expr{op: opNum, k: k} }

// Const is the constant d (Constant): its value in Eval and in the
// generated Go code, its name (or ref's spelling) in a formula, so that a
// workbook reads it from a named cell, and its value in words unless the
// label says otherwise.
func Const(d Driver) Expr {
	if _, ok := constants[d]; !ok {
		panic("costid: " + d.String() + " is not a constant")
	}
	return Expr{op: opConst, d: d}
}

// Ref is driver d's value.
func Ref(d Driver) Expr { return Expr{op: opRef, d: d} }

// Add is a + b.
func Add(a, b Expr) Expr { return Expr{op: opAdd, args: []Expr{a, b}} }

// Sub is a − b.
func Sub(a, b Expr) Expr { return Expr{op: opSub, args: []Expr{a, b}} }

// Mul is a × b.
func Mul(a, b Expr) Expr { return Expr{op: opMul, args: []Expr{a, b}} }

// Div is a ÷ b.
func Div(a, b Expr) Expr { return Expr{op: opDiv, args: []Expr{a, b}} }

// IfPositive is then when cond > 0, otherwise otherwise: a spreadsheet's
// IF(cond>0, then, otherwise), the guard around a division.
func IfPositive(cond, then, otherwise Expr) Expr {
	return Expr{op: opIf, args: []Expr{cond, then, otherwise}}
}

// Min is the smaller of a and b: a spreadsheet's MIN(a, b).
func Min(a, b Expr) Expr { return Expr{op: opMin, args: []Expr{a, b}} }

// Eval is e's value at v (a figure e refers to has the value v holds).
// Each operation is rounded as it is written, as in a spreadsheet.
func (e Expr) Eval(v *Values) float64 {
	switch e.op {
	case opNum:
		return e.k
	case opRef:
		return v[e.d]
	case opConst:
		return constants[e.d]
	case opIf:
		if e.args[0].Eval(v) > 0 {
			return e.args[1].Eval(v)
		}
		return e.args[2].Eval(v)
	}
	a, b := e.args[0].Eval(v), e.args[1].Eval(v)
	switch e.op {
	case opAdd:
		return a + b
	case opSub:
		return a - b
	case opMul:
		return a * b
	case opMin:
		return math.Min(a, b)
	}
	return a / b
}

// Formula renders e as a spreadsheet formula, without the leading "=".
// ref gives each driver's cell reference or defined name; where it gives
// "", a defined figure is written as its definition and an input as its
// name; nil writes every driver as its name. Parentheses keep e's grouping exactly, so a spreadsheet performs
// Eval's operations in Eval's order.
func (e Expr) Formula(ref func(Driver) string) string {
	s, _ := e.render(&renderer{&formulaSyntax, ref, NoCostModel})
	return s
}

// Words renders e for a reader: "a × b + c", "a if c > 0, otherwise b".
// label gives each driver's words as ref does in Formula; nil uses the
// drivers' names.
func (e Expr) Words(label func(Driver) string) string {
	s, _ := e.render(&renderer{&wordSyntax, label, NoCostModel})
	return s
}

// A renderer spells expressions in one syntax: ref gives each driver's
// spelling ("" to write a figure m defines as its definition, and an
// input as its name; nil for every driver's name).
type renderer struct {
	syn *syntax
	ref func(Driver) string
	m   CostModel
}

// A syntax spells the operations for one renderer. Precedence: 1 for + and
// −, 2 for × and ÷, 3 for an operand that needs no parentheses; the
// choice has its own.
type syntax struct {
	op       [opIf]string
	choice   func(cond, then, otherwise string) string
	choicePr int
	// min spells the smaller of two operands (rendered at the choice's
	// precedence).
	min func(a, b string) string
	// rounded, when set, wraps a product or quotient (Go code: float64(…),
	// so that the compiler cannot fuse it with an addition).
	rounded func(string) string
	// number, when set, spells a number (else as strconv 'G' does).
	number func(float64) string
}

var (
	formulaSyntax = syntax{
		op: [opIf]string{opAdd: "+", opSub: "-", opMul: "*", opDiv: "/"},
		choice: func(c, a, b string) string {
			return "IF(" + c + ">0," + a + "," + b + ")"
		},
		choicePr: 3,
		min:      func(a, b string) string { return "MIN(" + a + "," + b + ")" },
	}
	wordSyntax = syntax{
		op: [opIf]string{opAdd: " + ", opSub: " − ", opMul: " × ", opDiv: " ÷ "},
		choice: func(c, a, b string) string {
			return a + " if " + c + " > 0, otherwise " + b
		},
		choicePr: 0,
		min:      func(a, b string) string { return "the smaller of " + a + " and " + b },
		number:   wordNumber,
	}
)

// wordNumber spells a whole number below 10¹⁵ with thousands separators
// (1,000,000), any other as strconv 'G' does.
func wordNumber(k float64) string {
	if k != math.Trunc(k) || math.Abs(k) >= 1e15 {
		return strconv.FormatFloat(k, 'G', -1, 64)
	}
	return num.Whole(k)
}

// render returns e spelled by rd and its precedence.
func (e Expr) render(rd *renderer) (string, int) {
	syn, ref := rd.syn, rd.ref
	switch e.op {
	case opNum:
		s := strconv.FormatFloat(e.k, 'G', -1, 64)
		if syn.number != nil {
			s = syn.number(e.k)
		}
		if e.k < 0 {
			s = "(" + s + ")"
		}
		return s, 3
	case opConst:
		if ref != nil && syn != &goSyntax {
			if s := ref(e.d); s != "" {
				return s, 3
			}
		}
		if syn == &formulaSyntax {
			return e.d.String(), 3
		}
		return Num(constants[e.d]).render(rd)
	case opRef:
		if ref == nil {
			return e.d.String(), 3
		}
		if s := ref(e.d); s != "" {
			return s, 3
		}
		if rd.m.Defines(e.d) {
			return rd.m.Definition(e.d).render(rd)
		}
		return e.d.String(), 3
	case opIf:
		// A formula's IF delimits its arguments; words need parentheses
		// around anything that is not a term.
		min := 0
		if syn.choicePr == 0 {
			min = 1
		}
		c := e.args[0].operand(rd, min)
		a := e.args[1].operand(rd, min)
		b := e.args[2].operand(rd, min)
		return syn.choice(c, a, b), syn.choicePr
	case opMin:
		min := 0
		if syn.choicePr == 0 {
			min = 1
		}
		a := e.args[0].operand(rd, min)
		b := e.args[1].operand(rd, min)
		return syn.min(a, b), syn.choicePr
	}
	pr := 1
	if e.op == opMul || e.op == opDiv {
		pr = 2
	}
	// The right operand of an operation of its own precedence keeps its
	// parentheses: a − (b − c), and a + (b + c), which rounds differently
	// from a + b + c.
	s := e.args[0].operand(rd, pr) + syn.op[e.op] + e.args[1].operand(rd, pr+1)
	if pr == 2 && syn.rounded != nil {
		return syn.rounded(s), 3
	}
	return s, pr
}

// operand renders e in parentheses when its precedence is below min.
func (e Expr) operand(rd *renderer, min int) string {
	s, pr := e.render(rd)
	if pr < min {
		return "(" + s + ")"
	}
	return s
}
