// A finite float literal beyond its type's largest finite value is an error
// (mlir-opt 22 silently reads 65520.0 : f16 as infinity; write 0x7C00 for
// that), and a hexadecimal pattern wider than its type is out of range, as
// in mlir-opt, except f64's infinity and NaN patterns older printers wrote.
// RUN: otir-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// expected-error @+1 {{float literal '65520.0' is out of range for f16 (largest finite value 65504)}}
"test.op"() {a = 65520.0 : f16} : () -> ()

// -----

// expected-error @+1 {{float literal '-3.5e38' is out of range for f32 (largest finite value 3.4028234663852886e+38)}}
"test.op"() {a = -3.5e38 : f32} : () -> ()

// -----

// expected-error @+1 {{float literal '1.0e39' is out of range for bf16}}
"test.op"() {a = 1.0e39 : bf16} : () -> ()

// -----

// expected-error @+1 {{float literal '1.0e400' is out of range for f64}}
"test.op"() {a = 1.0e400 : f64} : () -> ()

// -----

// expected-error @+1 {{float literal '70000' is out of range for f16}}
"test.op"() {a = 70000 : f16} : () -> ()

// -----

// expected-error @+1 {{hexadecimal float constant out of range for type}}
"test.op"() {a = 0x1FFFF : f16} : () -> ()

// -----

// expected-error @+1 {{hexadecimal float constant out of range for type}}
"test.op"() {a = 0x3FF0000000000000 : f32} : () -> ()

// -----

// expected-error @+1 {{float literal '1.0e5' is out of range for f16}}
"test.dense"() {v = dense<[1.0, 1.0e5]> : tensor<2xf16>} : () -> ()
