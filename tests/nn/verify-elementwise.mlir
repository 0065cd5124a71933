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

// -----

nn.graph @abs_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.abs' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.abs %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @cos_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.cos' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.cos %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @log_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.log' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.log %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @sin_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.sin' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.sin %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @sqrt_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.sqrt' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.sqrt %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @inv_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.inv' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.inv %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @detach_shape(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.detach' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.detach %a : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @sub_no_broadcast(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.sub' op operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got 'tensor<2x3xf64>' and 'tensor<3xf64>'}}
  %0 = nn.sub %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @max_no_broadcast(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.max' op operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got 'tensor<2x3xf64>' and 'tensor<3xf64>'}}
  %0 = nn.max %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @min_no_broadcast(%a: tensor<2x3xf64>, %b: tensor<3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.min' op operands must have the same shape (element-wise operands do not broadcast: use nn.broadcast_to), but got 'tensor<2x3xf64>' and 'tensor<3xf64>'}}
  %0 = nn.min %a, %b : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}
