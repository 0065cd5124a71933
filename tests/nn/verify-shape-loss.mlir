// The shape nodes (dialect/nn/shape.go) and nn.mse_loss (loss.go): the
// rules of their Verify hooks.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @perm_length(%x: tensor<2x3x4xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.permute' op perm [1, 0] must have one entry per dimension of the input (rank 3)}}
  %0 = nn.permute %x {perm = [1, 0]} : (tensor<2x3x4xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @perm_range(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.permute' op perm [2, 0]: entry 2 is not a dimension of the input (rank 2)}}
  %0 = nn.permute %x {perm = [2, 0]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @perm_negative(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.permute' op perm [-1, 0]: entry -1 is not a dimension of the input (rank 2)}}
  %0 = nn.permute %x {perm = [-1, 0]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @perm_repeat(%x: tensor<2x3xf64>) -> tensor<2x2xf64> {
  // expected-error @+1 {{'nn.permute' op perm [0, 0] repeats dimension 0}}
  %0 = nn.permute %x {perm = [0, 0]} : (tensor<2x3xf64>) -> tensor<2x2xf64>
  nn.return %0 : tensor<2x2xf64>
}

// -----

nn.graph @perm_kind(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.permute' op attribute 'perm' must be an array attribute, but got an array<i64> attribute}}
  %0 = nn.permute %x {perm = array<i64: 1, 0>} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @perm_result(%x: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  // expected-error @+1 {{'nn.permute' op result type 'tensor<2x3x4xf64>' does not match the shape rule: expected 'tensor<4x2x3xf64>'}}
  %0 = nn.permute %x {perm = [2, 0, 1]} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  nn.return %0 : tensor<2x3x4xf64>
}

// -----

nn.graph @broadcast_rank(%x: tensor<2x3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.broadcast_to' op cannot broadcast 'tensor<2x3xf64>' to 'tensor<3xf64>': the input has more dimensions than the result}}
  %0 = nn.broadcast_to %x : (tensor<2x3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

// PyTorch aligns from the back: [2] -> [2, 3] is illegal (TorchLean's front
// matching would accept it).
nn.graph @broadcast_align(%x: tensor<2xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.broadcast_to' op cannot broadcast 'tensor<2xf64>' to 'tensor<2x3xf64>': input dimension 0 (2) is neither 1 nor the result's dimension 1 (3); shapes align from the back}}
  %0 = nn.broadcast_to %x : (tensor<2xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @reshape_numel(%x: tensor<2x3xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.reshape' op cannot reshape 'tensor<2x3xf64>' (6 elements) to 'tensor<4xf64>' (4 elements)}}
  %0 = nn.reshape %x : (tensor<2x3xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @flatten(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.flatten' op result type 'tensor<3x2xf64>' does not match the shape rule: expected 'tensor<6xf64>'}}
  %0 = nn.flatten %x : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @concat_one(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.concat' op takes two or more operands, but got 1}}
  %0 = nn.concat %x {axis = 0} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @concat_rank(%x: tensor<2x3xf64>, %y: tensor<3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.concat' op operand #1 ('tensor<3xf64>') must have the rank of operand #0 ('tensor<2x3xf64>')}}
  %0 = nn.concat %x, %y {axis = 0} : (tensor<2x3xf64>, tensor<3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @concat_dims(%x: tensor<2x3xf64>, %y: tensor<2x4xf64>) -> tensor<4x3xf64> {
  // expected-error @+1 {{'nn.concat' op operand #1 ('tensor<2x4xf64>') differs from operand #0 ('tensor<2x3xf64>') in dimension 1; only axis 0 may differ}}
  %0 = nn.concat %x, %y {axis = 0} : (tensor<2x3xf64>, tensor<2x4xf64>) -> tensor<4x3xf64>
  nn.return %0 : tensor<4x3xf64>
}

// -----

nn.graph @concat_axis(%x: tensor<2x3xf64>, %y: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.concat' op axis 2 is out of range for an operand of rank 2}}
  %0 = nn.concat %x, %y {axis = 2} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @concat_result(%x: tensor<2x3xf64>, %y: tensor<2x4xf64>) -> tensor<2x6xf64> {
  // expected-error @+1 {{'nn.concat' op result type 'tensor<2x6xf64>' does not match the shape rule: expected 'tensor<2x7xf64>'}}
  %0 = nn.concat %x, %y {axis = 1} : (tensor<2x3xf64>, tensor<2x4xf64>) -> tensor<2x6xf64>
  nn.return %0 : tensor<2x6xf64>
}

// -----

nn.graph @swap_rank(%x: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.swap_first_two' op input must have rank 2 or more, but got 'tensor<3xf64>'}}
  %0 = nn.swap_first_two %x : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @transpose_rank(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  // expected-error @+1 {{'nn.transpose3d_last_two' op input must have rank 3, but got 'tensor<2x3xf64>'}}
  %0 = nn.transpose3d_last_two %x : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}

// -----

nn.graph @mse_shapes(%p: tensor<3xf64>, %t: tensor<1x3xf64>) -> tensor<f64> {
  // expected-error @+1 {{'nn.mse_loss' op prediction and target must have the same shape, but got 'tensor<3xf64>' and 'tensor<1x3xf64>'}}
  %0 = nn.mse_loss %p, %t : (tensor<3xf64>, tensor<1x3xf64>) -> tensor<f64>
  nn.return %0 : tensor<f64>
}

// -----

nn.graph @mse_result(%p: tensor<3xf64>, %t: tensor<3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.mse_loss' op result type 'tensor<3xf64>' does not match the shape rule: expected 'tensor<f64>'}}
  %0 = nn.mse_loss %p, %t : (tensor<3xf64>, tensor<3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}
