// Float and string attributes round trip (issue 26 item 8): NaNs and
// infinities print as the bit pattern of their own type (mlir-opt rejects
// 0x7FF8000000000000 : f32), NaN payloads and signalling NaNs are kept,
// literals are rounded to their type, and bytes that are not printable UTF-8
// print as MLIR's \HH escapes. print -> parse -> print is the identity.
// RUN: otir-opt %s --allow-unregistered-dialect > %t.1
// RUN: otir-opt %t.1 --allow-unregistered-dialect > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s --input-file %t.1

// CHECK: b2 = 0.1 : bf16, bf = 0x7FC1 : bf16, d = 0x7FF0000000000001 : f64, h = 0x7E01 : f16,
// CHECK-SAME: hh = 0.1 : f16, inf = 0x7F800000 : f32, m = 3.4028235e+38 : f32, n = -0.0 : f32,
// CHECK-SAME: nan = 0x7FC00000 : f32, nan1 = 0x7FC00001 : f32, nneg = 0xFFC00000 : f32,
// CHECK-SAME: old = 0x7FC00000 : f32, oldh = 0xFC00 : f16,
// CHECK-SAME: s1 = "\FF\00x", s2 = "café", s3 = "tab\tnl\n q\" bs\\ \n \t \7F", s4 = "é\E9", s5 = "\FF\07",
// CHECK-SAME: snan = 0x7F800001 : f32, w = 1.6777216e+07 : f32, x = 0.1 : f32, y = 6.55e+04 : f16, z = 0.0 : f16
"test.op"() {nan = 0x7FC00000 : f32, nan1 = 0x7FC00001 : f32, snan = 0x7F800001 : f32, nneg = 0xFFC00000 : f32, h = 0x7E01 : f16, bf = 0x7FC1 : bf16, d = 0x7FF0000000000001 : f64, inf = 0x7F800000 : f32, old = 0x7FF8000000000000 : f32, oldh = 0xFFF0000000000000 : f16, x = 0.1 : f32, y = 65519.0 : f16, z = 1.0e-10 : f16, w = 16777217.0 : f32, m = 3.4028235e38 : f32, n = -0.0 : f32, hh = 0.1 : f16, b2 = 0.1 : bf16, s1 = "\FF\00x", s2 = "caf\C3\A9", s3 = "tab\09nl\0A q\22 bs\\ \n \t \7F", s4 = "é\E9", s5 = "\xff\a"} : () -> ()

// Dense float elements follow the same rules.
// CHECK: "test.dense"() {v = dense<[0x7FC00001, 0.1, 0xFF800000]> : tensor<3xf32>} : () -> ()
"test.dense"() {v = dense<[0x7FC00001, 0.1, 0xFFF0000000000000]> : tensor<3xf32>} : () -> ()
