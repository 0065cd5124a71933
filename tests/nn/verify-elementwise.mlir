// The element-wise nodes (dialect/nn/elementwise.go): binary operands of
// equal shapes, no implicit broadcasting; unary results of the operand's
// shape (verify-node.mlir has the shape rule's message).
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @no_broadcast(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.mul' op operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got 'tensor<2x3xf64>' and 'tensor<3xf64>'}}
  %0 = nn.mul %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @unary_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.exp' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.exp %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}
