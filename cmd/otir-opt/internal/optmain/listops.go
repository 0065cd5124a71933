package optmain

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/otir-dev/otir/backend/exec"
	"github.com/otir-dev/otir/ir"
	"github.com/otir-dev/otir/lower/tiles"
)

// opRow is what --list-ops and docs/ops.md say of one operation: its record
// (ir.OpDef) and whether the executor and lower-tiles implement it, read
// from their dispatch tables.
type opRow struct {
	def          *ir.OpDef
	exec, lower  string // "yes", or "no: reason"
	operands     string
	results      string
	attrs        string
	traitsEffect string
}

// opRows lists every registered operation, sorted by name.
func opRows() []opRow {
	var rows []opRow
	for _, name := range ir.OpNames() {
		d := ir.LookupOp(name)
		r := opRow{def: d, exec: support(exec.Support(name)), lower: support(tiles.Support(name))}
		switch {
		case strings.HasPrefix(name, "dais."):
			r.exec, r.lower = "n/a: runs on the ALIR interpreter", "n/a: lower-tiles' output"
		case strings.HasPrefix(name, "nn."):
			r.exec, r.lower = nnNotHere, nnNotHere
		case name == ir.OpModule || d.Has(ir.Symbol):
			r.exec, r.lower = "yes (structure)", "yes (structure)"
		}
		r.operands = args(d.Operands)
		r.results = args(d.Results)
		var as []string
		for _, a := range d.Attrs {
			s := a.Name
			if len(a.Enum) > 0 {
				s += " (" + strings.Join(a.Enum, "|") + ")"
			}
			if a.Optional {
				s += "?"
			}
			as = append(as, s)
		}
		r.attrs = strings.Join(as, ", ")
		te := d.Traits.Names()
		if d.EffectOf != nil {
			te = append(te, "effect: depends on operands")
		} else if d.Effect != ir.NoEffect {
			te = append(te, "effect: "+d.Effect.String())
		}
		r.traitsEffect = strings.Join(te, ", ")
		rows = append(rows, r)
	}
	return rows
}

// nnNotHere is what the executor and lower-tiles columns say of the nn
// dialect's operations.
const nnNotHere = "n/a: nn graphs run on the nn evaluator (issue 18)"

func support(ok bool, why string) string {
	if ok {
		return "yes"
	}
	return "no: " + why
}

// args spells operand or result groups: name, name?, name*.
func args(as []ir.ArgDef) string {
	var s []string
	for _, a := range as {
		switch a.Arity {
		case ir.Optional:
			s = append(s, a.Name+"?")
		case ir.Variadic:
			s = append(s, a.Name+"*")
		default:
			s = append(s, a.Name)
		}
	}
	return strings.Join(s, ", ")
}

// listOps prints --list-ops: one block per operation.
func listOps(w io.Writer) {
	fmt.Fprintln(w, "Registered operations (operands and results: name? optional, name* variadic):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range opRows() {
		fmt.Fprintf(tw, "  %s\t%s\n", r.def.Name, r.def.Summary)
		line := func(k, v string) {
			if v != "" {
				fmt.Fprintf(tw, "    %s\t%s\n", k, v)
			}
		}
		line("operands:", r.operands)
		line("results:", r.results)
		line("attributes:", r.attrs)
		line("regions:", strings.Join(r.def.Regions, ", "))
		line("traits:", r.traitsEffect)
		line("format:", r.def.Format)
		line("executor:", r.exec)
		line("lower-tiles:", r.lower)
	}
	tw.Flush()
}

// opsMarkdown is docs/ops.md: the table of every operation, generated from
// the records and the dispatch tables (TestOpsDoc keeps the file current).
func opsMarkdown() string {
	var b strings.Builder
	b.WriteString("# Operations\n\n")
	b.WriteString("Generated from the operation records (`ir.OpDef`, in `dialect/*`) and the\n")
	b.WriteString("dispatch tables of the executor and of `lower-tiles`, by\n")
	b.WriteString("`go test ./cmd/otir-opt/internal/optmain -run TestOpsDoc -update`; `otir-opt --list-ops`\n")
	b.WriteString("prints the same, with each op's assembly format. Operands and results:\n")
	b.WriteString("`name?` is optional, `name*` variadic.\n\n")
	b.WriteString("| operation | summary | operands | results | attributes | traits, effect | executor | lower-tiles |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|\n")
	esc := func(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
	for _, r := range opRows() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", r.def.Name, esc(r.def.Summary),
			esc(r.operands), esc(r.results), esc(r.attrs), esc(r.traitsEffect), esc(r.exec), esc(r.lower))
	}
	return b.String()
}
