// nn.max_pool2d, nn.avg_pool2d (dialect/nn/pool.go), nn.softmax,
// nn.layer_norm (norm.go), nn.reduce_sum, nn.reduce_mean, nn.sum
// (reduce.go): the rules of their Verify hooks. The window rules the pools
// share with nn.conv2d are in verify-linalg.mlir.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @pool_padding(%x: tensor<1x8x8xf64>) -> tensor<1x5x5xf64> {
  // expected-error @+1 {{'nn.max_pool2d' op padding 2 must be at most half the kernel 3x3}}
  %0 = nn.max_pool2d %x {kernel = [3, 3], stride = 2, padding = 2} : (tensor<1x8x8xf64>) -> tensor<1x5x5xf64>
  nn.return %0 : tensor<1x5x5xf64>
}

// -----

nn.graph @pool_fit(%x: tensor<1x2x2xf64>) -> tensor<1x1x1xf64> {
  // expected-error @+1 {{'nn.avg_pool2d' op kernel 3x3 does not fit the padded input 2x2 (padding 0)}}
  %0 = nn.avg_pool2d %x {kernel = [3, 3], stride = 1} : (tensor<1x2x2xf64>) -> tensor<1x1x1xf64>
  nn.return %0 : tensor<1x1x1xf64>
}

// -----

nn.graph @pool_rank(%x: tensor<1x1x1x8x8xf64>) -> tensor<1x1x1x4x4xf64> {
  // expected-error @+1 {{'nn.avg_pool2d' op input must have rank 3 ([C, H, W]) or 4 ([N, C, H, W]), but got 'tensor<1x1x1x8x8xf64>'}}
  %0 = nn.avg_pool2d %x {kernel = [2, 2], stride = 2} : (tensor<1x1x1x8x8xf64>) -> tensor<1x1x1x4x4xf64>
  nn.return %0 : tensor<1x1x1x4x4xf64>
}

// -----

nn.graph @pool_output(%x: tensor<3x1x8x8xf64>) -> tensor<3x1x4x4xf64> {
  // expected-error @+1 {{'nn.max_pool2d' op result type 'tensor<3x1x4x4xf64>' does not match the shape rule: expected 'tensor<3x1x3x3xf64>'}}
  %0 = nn.max_pool2d %x {kernel = [3, 3], stride = 2} : (tensor<3x1x8x8xf64>) -> tensor<3x1x4x4xf64>
  nn.return %0 : tensor<3x1x4x4xf64>
}

// -----

nn.graph @softmax_axis(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.softmax' op axis 2 is out of range for an operand of rank 2}}
  %0 = nn.softmax %x {axis = 2} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @softmax_rank0(%x: tensor<f64>) -> tensor<f64> {
  // expected-error @+1 {{'nn.softmax' op axis 0 is out of range for an operand of rank 0}}
  %0 = nn.softmax %x {axis = 0} : (tensor<f64>) -> tensor<f64>
  nn.return %0 : tensor<f64>
}

// -----

nn.graph @softmax_negative_axis(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.softmax' op axis must be non-negative, but got -1}}
  %0 = nn.softmax %x {axis = -1} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @softmax_axis_missing(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.softmax' op requires attribute 'axis'}}
  %0 = nn.softmax %x : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @layer_norm_axis(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.layer_norm' op axis 5 is out of range for an operand of rank 2}}
  %0 = nn.layer_norm %x {axis = 5} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @layer_norm_epsilon(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.layer_norm' op epsilon must be finite and non-negative, but got -1.0e-05}}
  %0 = nn.layer_norm %x {axis = 1, epsilon = -1.0e-05} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @layer_norm_epsilon_kind(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  // expected-error @+1 {{'nn.layer_norm' op attribute 'epsilon' must be a float attribute, but got an integer attribute}}
  %0 = nn.layer_norm %x {axis = 1, epsilon = 1} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}

// -----

nn.graph @reduce_axis(%x: tensor<2x3xf64>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.reduce_sum' op axis 2 is out of range for an operand of rank 2}}
  %0 = nn.reduce_sum %x {axis = 2} : (tensor<2x3xf64>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @reduce_result(%x: tensor<2x3xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.reduce_mean' op result type 'tensor<3xf64>' does not match the shape rule: expected 'tensor<2xf64>'}}
  %0 = nn.reduce_mean %x {axis = 1} : (tensor<2x3xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @sum_rank0(%x: tensor<2x3xf64>) -> tensor<1xf64> {
  // expected-error @+1 {{'nn.sum' op result type 'tensor<1xf64>' does not match the shape rule: expected 'tensor<f64>'}}
  %0 = nn.sum %x : (tensor<2x3xf64>) -> tensor<1xf64>
  nn.return %0 : tensor<1xf64>
}
