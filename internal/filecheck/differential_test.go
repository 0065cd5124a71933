package filecheck

import "testing"

// TestLLVMDifferential is a differential corpus against LLVM 22's FileCheck:
// each row's exit status and stderr were recorded from
// /usr/lib/llvm-22/bin/FileCheck check.txt --dump-input=never (1:22.1.8)
// with the row's check line and input. It covers regexes with an empty
// (sub)expression (Spencer's REG_EMPTY, also left by dropping x{0}; an
// empty group "()" is valid) and
// where the caret of an invalid -COUNT goes, which follows
// StringRef::consumeInteger: text left in place when the number overflows
// 64 bits unsigned, consumed when it fits 64 bits unsigned but not int64.
func TestLLVMDifferential(t *testing.T) {
	for _, c := range []struct {
		check, input string
		exit         int
		stderr       string
	}{
		{"CHECK: {{(a|)}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{(a|)}}\n         ^\n"},
		{"CHECK: {{()}}", "a\n", 0, ""},
		{"CHECK: {{a||b}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{a||b}}\n         ^\n"},
		{"CHECK: {{|a}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{|a}}\n         ^\n"},
		{"CHECK: {{a|}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{a|}}\n         ^\n"},
		{"CHECK: {{(|a)}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{(|a)}}\n         ^\n"},
		{"CHECK: {{(a)|}}", "a\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{(a)|}}\n         ^\n"},
		{"CHECK: {{a(|)b}}", "ab\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{a(|)b}}\n         ^\n"},
		{"CHECK: {{(()|a)}}", "a\n", 0, ""},
		{"CHECK: {{(())}}", "a\n", 0, ""},
		{"CHECK: {{()*}}", "a\n", 0, ""},
		{"CHECK: x{{()}}y", "xy\n", 0, ""},
		{"CHECK: a{{|}}", "a\n", 2, "check.txt:1:11: error: invalid regex: empty (sub)expression\nCHECK: a{{|}}\n          ^\n"},
		{"CHECK: [[V:(a|)]]", "a\n", 2, "check.txt:1:12: error: invalid regex: empty (sub)expression\nCHECK: [[V:(a|)]]\n           ^\n"},
		{"CHECK: [[V:()]]", "a\n", 0, ""},
		{"CHECK-NOT: {{b|}}", "a\n", 2, "check.txt:1:14: error: invalid regex: empty (sub)expression\nCHECK-NOT: {{b|}}\n             ^\n"},
		{"CHECK: {{a{0}|b}}", "abc\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{a{0}|b}}\n         ^\n"},
		{"CHECK: {{v(a{0})}}", "abc\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{v(a{0})}}\n         ^\n"},
		{"CHECK: {{(a{0,0}b{0})c}}", "abc\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{(a{0,0}b{0})c}}\n         ^\n"},
		{"CHECK: {{(b|[a-z]{0})c}}", "abc\n", 2, "check.txt:1:10: error: invalid regex: empty (sub)expression\nCHECK: {{(b|[a-z]{0})c}}\n         ^\n"},
		{"CHECK: {{a{0}b|c}}", "abc\n", 0, ""},
		{"CHECK: {{(()){0}b}}", "abc\n", 0, ""},
		{"CHECK-COUNT-0: a", "a\n", 2, "check.txt:1:14: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-0: a\n             ^\n"},
		{"CHECK-COUNT-1: a", "a\n", 0, ""},
		{"CHECK-COUNT--1: a", "a\n", 2, "check.txt:1:15: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT--1: a\n              ^\n"},
		{"CHECK-COUNT--0: a", "a\n", 2, "check.txt:1:15: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT--0: a\n              ^\n"},
		{"CHECK-COUNT-x: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-x: a\n            ^\n"},
		{"CHECK-COUNT-: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-: a\n            ^\n"},
		{"CHECK-COUNT-1x: a", "a\n", 2, "check.txt:1:14: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-1x: a\n             ^\n"},
		{"CHECK-COUNT-2147483647x: a", "a\n", 2, "check.txt:1:23: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-2147483647x: a\n                      ^\n"},
		{"CHECK-COUNT-2147483648: a", "a\n", 2, "check.txt:1:23: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-2147483648: a\n                      ^\n"},
		{"CHECK-COUNT-99999999999: a", "a\n", 2, "check.txt:1:24: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-99999999999: a\n                       ^\n"},
		{"CHECK-COUNT-9223372036854775807: a", "a\n", 2, "check.txt:1:32: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-9223372036854775807: a\n                               ^\n"},
		{"CHECK-COUNT-9223372036854775808: a", "a\n", 2, "check.txt:1:32: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-9223372036854775808: a\n                               ^\n"},
		{"CHECK-COUNT-18446744073709551615: a", "a\n", 2, "check.txt:1:33: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-18446744073709551615: a\n                                ^\n"},
		{"CHECK-COUNT-18446744073709551616: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-18446744073709551616: a\n            ^\n"},
		{"CHECK-COUNT-99999999999999999999999999: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT-99999999999999999999999999: a\n            ^\n"},
		{"CHECK-COUNT--9223372036854775808: a", "a\n", 2, "check.txt:1:33: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT--9223372036854775808: a\n                                ^\n"},
		{"CHECK-COUNT--9223372036854775809: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT--9223372036854775809: a\n            ^\n"},
		{"CHECK-COUNT--18446744073709551616: a", "a\n", 2, "check.txt:1:13: error: invalid count in -COUNT specification on prefix 'CHECK'\nCHECK-COUNT--18446744073709551616: a\n            ^\n"},
	} {
		code, _, stderr := runMain(t, c.check+"\n", c.input, nil, "%s", "--dump-input=never")
		if code != c.exit || stderr != c.stderr {
			t.Errorf("%q on %q: exit %d, stderr\n%s\nwant exit %d, stderr\n%s", c.check, c.input, code, stderr, c.exit, c.stderr)
		}
	}
}
