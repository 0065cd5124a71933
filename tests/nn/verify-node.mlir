// The rules every nn node shares (dialect/nn/dialect.go's checkNode, and
// the generic rules of its record): arity, tensor operands and result of
// f64 or f32, one element type, the declared result against the shape
// rule, the node's place in a graph, SSA order.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @arity(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.add' op expects 2 operands, but got 1}}
  %0 = "nn.add"(%x) : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @results(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.relu' op expects 1 result, but got 2}}
  %0:2 = "nn.relu"(%x) : (tensor<3xf64>) -> (tensor<3xf64>, tensor<3xf64>)
  nn.return %0#0 : tensor<3xf64>
}

// -----

nn.graph @operand_not_tensor(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op result must be a tensor, but got 'f64'}}
  %c = "nn.const"() {params = "c"} : () -> f64
  // expected-error @+1 {{'nn.relu' op operand #0 must be a tensor, but got 'f64'}}
  %0 = "nn.relu"(%c) : (f64) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @element_type(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op element type must be f64, f32 or !quant.uniform, but got 'tensor<3xi8>'}}
  %c = nn.const {params = "c"} : () -> tensor<3xi8>
  nn.return %x : tensor<3xf64>
}

// -----

nn.graph @same_element_type(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.relu' op operands and result must have the same element type, but got 'f64' and 'f32'}}
  %0 = nn.relu %x : (tensor<3xf64>) -> tensor<3xf32>
  nn.return %x : tensor<3xf64>
}

// -----

nn.graph @shape_rule(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.relu' op result type 'tensor<4xf64>' does not match the shape rule: expected 'tensor<3xf64>'}}
  %0 = nn.relu %x : (tensor<3xf64>) -> tensor<4xf64>
  nn.return %x : tensor<3xf64>
}

// -----

otir.kernel @in_a_kernel() {
  // expected-error @+1 {{'nn.rand_uniform' op expects parent op 'nn.graph'}}
  %0 = nn.rand_uniform {seed = 1} : () -> tensor<3xf64>
  otir.return
}

// -----

// expected-error @+1 {{'nn.rand_uniform' op expects parent op 'nn.graph'}}
%0 = nn.rand_uniform {seed = 1} : () -> tensor<3xf64>

// -----

// SSA order: every operand is produced by an earlier node.
nn.graph @use_before_definition(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.relu' op operand #0 does not dominate this use}}
  %0 = nn.relu %1 : (tensor<3xf64>) -> tensor<3xf64>
  // expected-note @+1 {{operand defined here (op in the same block)}}
  %1 = nn.relu %x : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @undefined(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %0 = nn.relu %y : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

// A graph uses no value of another (IsolatedFromAbove).
nn.graph @isolated(%x: tensor<3xf64>) -> tensor<3xf64> {
  %0 = nn.relu %x : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}
nn.graph @other(%y: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{use of undeclared SSA value name}}
  %1 = nn.relu %0 : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %1 : tensor<3xf64>
}

// -----

// Quantized and f64 tensors mix (an f64 tensor of a quantized graph is exact);
// f32 does not mix with them (nor is it a tensor of a quantized graph:
// verify-quant.mlir).
// expected-error @+1 {{'nn.graph' op result #0 of a quantized graph has type 'tensor<4xf32>'}}
nn.graph @g(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf32> {
  %0 = nn.relu %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  // expected-error @+1 {{'nn.relu' op operands and result must have the same element type, but got '!quant.uniform<i8:f64, 0.0625>' and 'f32'}}
  %1 = nn.relu %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf32>
  nn.return %1 : tensor<4xf32>
}
