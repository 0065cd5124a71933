// mlir-opt reads what otir prints for float and string attributes, and otir
// reads mlir-opt's output back to the same text (issue 26 item 8).
// REQUIRES: mlir-opt
// RUN: otir-opt %s --allow-unregistered-dialect > %t.otir
// RUN: otir-opt %s --allow-unregistered-dialect --print-op-generic | mlir-opt --allow-unregistered-dialect --mlir-print-op-generic > %t.mlir
// RUN: otir-opt %t.mlir --allow-unregistered-dialect | diff %t.otir -
"test.op"() {nan = 0x7FC00000 : f32, nan1 = 0x7FC00001 : f32, snan = 0x7F800001 : f32, nneg = 0xFFC00000 : f32, h = 0x7E01 : f16, bf = 0x7FC1 : bf16, d = 0x7FF0000000000001 : f64, inf = 0x7F800000 : f32, old = 0x7FF8000000000000 : f32, x = 0.1 : f32, y = 65519.0 : f16, z = 1.0e-10 : f16, w = 16777217.0 : f32, m = 3.4028235e38 : f32, n = -0.0 : f32, hh = 0.1 : f16, b2 = 0.1 : bf16, s1 = "\FF\00x", s2 = "caf\C3\A9", s3 = "tab\09nl\0A q\22 bs\\ \n \t \7F", s4 = "é\E9"} : () -> ()
"test.dense"() {v = dense<[0x7FC00001, 0.1, 0xFF800000]> : tensor<3xf32>} : () -> ()
