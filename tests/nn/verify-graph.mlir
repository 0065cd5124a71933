// nn.graph and nn.return: the rules of their Verify hooks
// (dialect/nn/graph.go) and records.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

// expected-error @+1 {{'nn.graph' op attribute 'sym_name' must not be empty}}
"nn.graph"() ({
^bb0(%x: tensor<3xf64>):
  "nn.return"(%x) : (tensor<3xf64>) -> ()
}) {function_type = (tensor<3xf64>) -> tensor<3xf64>, sym_name = ""} : () -> ()

// -----

// expected-error @+1 {{'nn.graph' op function_type has 2 inputs, but the body has 1 argument}}
"nn.graph"() ({
^bb0(%x: tensor<3xf64>):
  "nn.return"(%x) : (tensor<3xf64>) -> ()
}) {function_type = (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>, sym_name = "g"} : () -> ()

// -----

// expected-error @+1 {{'nn.graph' op type of argument #0 ('tensor<3xf64>') does not match the function_type input 'tensor<4xf64>'}}
"nn.graph"() ({
^bb0(%x: tensor<3xf64>):
  "nn.return"(%x) : (tensor<3xf64>) -> ()
}) {function_type = (tensor<4xf64>) -> tensor<3xf64>, sym_name = "g"} : () -> ()

// -----

// expected-error @+1 {{'nn.graph' op argument #0 must be a tensor of f64 or f32, but got 'f64'}}
nn.graph @scalar_argument(%x: f64) -> tensor<3xf64> {
  %c = nn.const {params = "c"} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

// expected-error @+1 {{'nn.graph' op argument #0 must be a tensor of f64 or f32, but got 'tensor<3xi32>'}}
nn.graph @integer_argument(%x: tensor<3xi32>) -> tensor<3xf64> {
  %c = nn.const {params = "c"} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

// expected-error @+1 {{'nn.graph' op must have at least one output}}
nn.graph @no_output(%x: tensor<3xf64>) {
  nn.return
}

// -----

// expected-error @+1 {{'nn.graph' op result #1 must be a tensor of f64 or f32, but got 'f64'}}
nn.graph @scalar_result(%x: tensor<3xf64>) -> (tensor<3xf64>, f64) {
  // expected-error @+1 {{'nn.const' op result must be a tensor, but got 'f64'}}
  %c = "nn.const"() {params = "c"} : () -> f64
  nn.return %x, %c : tensor<3xf64>, f64
}

// -----

// expected-error @+1 {{'nn.graph' op expects its body to end with 'nn.return', found 'nn.relu'}}
nn.graph @no_return(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = nn.relu %x : (tensor<3xf64>) -> tensor<3xf64>
}

// -----

// expected-error @+1 {{'nn.graph' op expects its body to end with 'nn.return', but the body is empty}}
nn.graph @empty(%x: tensor<3xf64>) -> tensor<3xf64> {
}

// -----

nn.graph @return_count(%x: tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  // expected-error @+1 {{'nn.return' op has 1 operand, but the enclosing graph (@return_count) returns 2}}
  nn.return %x : tensor<3xf64>
}

// -----

nn.graph @return_type(%x: tensor<3xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.return' op type of return operand 0 ('tensor<3xf64>') doesn't match graph result type ('tensor<4xf64>') in graph @return_type}}
  nn.return %x : tensor<3xf64>
}

// -----

nn.graph @return_last(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.return' op must be the last operation in its block}}
  nn.return %x : tensor<3xf64>
  nn.return %x : tensor<3xf64>
}

// -----

otir.kernel @k() {
  // expected-error @+1 {{'nn.return' op expects parent op 'nn.graph'}}
  nn.return
  otir.return
}

// -----

nn.graph @outer(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.graph' op expects parent op 'builtin.module'}}
  "nn.graph"() ({
  ^bb0(%y: tensor<3xf64>):
    "nn.return"(%y) : (tensor<3xf64>) -> ()
  }) {function_type = (tensor<3xf64>) -> tensor<3xf64>, sym_name = "inner"} : () -> ()
  nn.return %x : tensor<3xf64>
}

// -----

// expected-note @+1 {{see existing symbol definition here}}
nn.graph @twice(%x: tensor<3xf64>) -> tensor<3xf64> {
  nn.return %x : tensor<3xf64>
}
// expected-error @+1 {{redefinition of symbol named 'twice'}}
nn.graph @twice(%x: tensor<3xf64>) -> tensor<3xf64> {
  nn.return %x : tensor<3xf64>
}
