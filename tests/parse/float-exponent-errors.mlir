// A float literal needs a decimal point, as in MLIR: mlir-opt (LLVM 22)
// rejects {epsilon = 1e-5} (it reads the integer 1, then fails at e-5) and
// reads 1.0e-5 and 1.e-5. otir rejects the same spellings and says what to
// write instead.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @g(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{a float needs a decimal point, as in MLIR: write 1.0e-5, not 1e-5}}
  %y = nn.layer_norm %x {axis = 0, epsilon = 1e-5} : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %y : tensor<3xf64>
}

// -----

nn.graph @g(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{a float needs a decimal point, as in MLIR: write -2.0E+3, not -2E+3}}
  %y = "nn.layer_norm"(%x) {axis = 0 : i64, epsilon = -2E+3 : f64} : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %y : tensor<3xf64>
}
