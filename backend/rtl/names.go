package rtl

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Design names. A design's name comes from the user (--name, the output
// file's stem, a kernel's name) and is printed unquoted as the Verilog
// module and VHDL entity, and as the prefix of every other name in the
// design (<name>_v3, <name>_rom0, <name>_tb ...). DesignName turns any
// string into a name legal in both languages, so a design has the same
// name in its Verilog and its VHDL.

// MaxNameLength is the longest design name (in bytes): a longer one is
// shortened to a prefix and a hash.
const MaxNameLength = 64

// hashDigits is the length of the hash that ends a rewritten name.
const hashDigits = 8

// DesignName returns name as a design name: a Verilog identifier and a
// VHDL basic identifier (an ASCII letter, then letters and digits, single
// underscores between them) that is no keyword of Verilog, SystemVerilog or
// VHDL in any letter case, nor a name the written files declare themselves
// (reservedNames).
//
// A name that is all that already, at most MaxNameLength bytes long, and
// does not end like a rewritten name (_x and 8 hexadecimal digits) or a
// testbench (_tb), is kept. Any other is rewritten: its ASCII letters and
// digits, with one _ between runs of other characters, cut to leave room
// for "_x" and 8 hexadecimal digits of the SHA-256 of the whole name ("d"
// in front when it does not start with a letter). So distinct names give
// distinct design names, except for names that differ only in letter case
// (VHDL does not tell them apart) and for a collision of the 32-bit hash;
// and no design name is another design's testbench name.
func DesignName(name string) string {
	if keepName(name) {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	suffix := "_x" + hex.EncodeToString(sum[:])[:hashDigits]
	var b strings.Builder
	sep := false
	for i := 0; i < len(name) && b.Len() < MaxNameLength-len(suffix); i++ {
		c := name[i]
		if !isAlnum(c) {
			sep = b.Len() > 0
			continue
		}
		if b.Len() == 0 && !isLetter(c) {
			b.WriteByte('d')
		}
		if sep {
			b.WriteByte('_')
			sep = false
		}
		b.WriteByte(c)
	}
	base := strings.TrimRight(b.String(), "_")
	if len(base) > MaxNameLength-len(suffix) {
		base = strings.TrimRight(base[:MaxNameLength-len(suffix)], "_")
	}
	if base == "" {
		base = "d"
	}
	return base + suffix
}

// keepName reports whether name is already a design name (see DesignName).
func keepName(name string) bool {
	if len(name) > MaxNameLength || !isIdentifier(name) {
		return false
	}
	low := strings.ToLower(name)
	if verilogKeywords[low] || vhdlReserved[low] || reservedNames[low] || strings.HasSuffix(low, "_tb") {
		return false
	}
	// ends like a rewritten name: _x and hashDigits hexadecimal digits
	if n := len(low) - hashDigits - 2; n >= 0 && low[n:n+2] == "_x" && isHex(low[n+2:]) {
		return false
	}
	return true
}

// isIdentifier reports whether s is a VHDL basic identifier made of ASCII
// letters, digits and single underscores, starting with a letter and not
// ending with an underscore: then it is a Verilog simple identifier too.
func isIdentifier(s string) bool {
	if s == "" || !isLetter(s[0]) || s[len(s)-1] == '_' {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if c == '_' && s[i-1] == '_' || c != '_' && !isAlnum(c) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isAlnum(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' }

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'f') {
			return false
		}
	}
	return true
}

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// verilogKeywords are the reserved words of Verilog (IEEE 1364-2005) and
// SystemVerilog (IEEE 1800-2017, which Verilator applies to .v files).
var verilogKeywords = wordSet(`
accept_on alias always always_comb always_ff always_latch and assert assign
assume automatic before begin bind bins binsof bit break buf bufif0 bufif1
byte case casex casez cell chandle checker class clocking cmos config const
constraint context continue cover covergroup coverpoint cross deassign
default defparam design disable dist do edge else end endcase endchecker
endclass endclocking endconfig endfunction endgenerate endgroup endinterface
endmodule endpackage endprimitive endprogram endproperty endspecify
endsequence endtable endtask enum event eventually expect export extends
extern final first_match for force foreach forever fork forkjoin function
generate genvar global highz0 highz1 if iff ifnone ignore_bins illegal_bins
implements implies import incdir include initial inout input inside instance
int integer interconnect interface intersect join join_any join_none large
let liblist library local localparam logic longint macromodule matches
medium modport module nand negedge nettype new nexttime nmos nor
noshowcancelled not notif0 notif1 null or output package packed parameter
pmos posedge primitive priority program property protected pull0 pull1
pulldown pullup pulsestyle_ondetect pulsestyle_onevent pure rand randc
randcase randsequence rcmos real realtime ref reg reject_on release repeat
restrict return rnmos rpmos rtran rtranif0 rtranif1 s_always s_eventually
s_nexttime s_until s_until_with scalared sequence shortint shortreal
showcancelled signed small soft solve specify specparam static string strong
strong0 strong1 struct super supply0 supply1 sync_accept_on sync_reject_on
table tagged task this throughout time timeprecision timeunit tran tranif0
tranif1 tri tri0 tri1 triand trior trireg type typedef union unique unique0
unsigned until until_with untyped use uwire var vectored virtual void wait
wait_order wand weak weak0 weak1 while wildcard wire with within wor xnor
xor`)

// vhdlReserved are the reserved words of VHDL-2008 (with PSL's) and
// VHDL-2019; VHDL ignores letter case.
var vhdlReserved = wordSet(`
abs access after alias all and architecture array assert assume
assume_guarantee attribute begin block body buffer bus case component
configuration constant context cover default disconnect downto else elsif
end entity exit fairness file for force function generate generic group
guarded if impure in inertial inout is label library linkage literal loop
map mod nand new next nor not null of on open or others out package parameter
port postponed private procedure process property protected pure range record
register reject release rem report restrict restrict_guarantee return rol ror
select sequence severity shared signal sla sll sra srl strong subtype then to
transport type unaffected units until use variable view vmode vpkg vprop
vunit wait when while with xnor xor`)

// reservedNames are names the written files declare or use unprefixed
// (ports, the testbenches' own names, VHDL's libraries, packages, types and
// functions): a design of such a name could hide or clash with them.
var reservedNames = wordSet(`
clk model_inp model_out idx row fname done fd r n cyc dut b infile f l o outv
c inp_rows out_rows inp_rows_t out_rows_t want check fail lane_real got
rtl sim work ieee std std_logic_1164 numeric_std textio std_logic
std_ulogic std_logic_vector unsigned signed resize to_integer rising_edge
positive natural integer string boolean bit bit_vector character text line
readline hread hwrite writeline output input endfile read_mode now time`)
