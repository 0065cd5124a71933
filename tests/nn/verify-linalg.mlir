// nn.linear, nn.matmul, nn.conv2d: the rules of their Verify hooks
// (dialect/nn/linalg.go), batched forms included.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @linear_params(%x: tensor<4xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.linear' op requires attribute 'params'}}
  %0 = "nn.linear"(%x) : (tensor<4xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @linear_rank0(%x: tensor<f64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.linear' op input must have rank 1 ([in]) or more ([..., in]), but got 'tensor<f64>'}}
  %0 = nn.linear %x {params = "fc"} : (tensor<f64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @linear_result_rank(%x: tensor<2x4xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.linear' op result type 'tensor<3xf64>' must have the input's rank 2 ([..., out])}}
  %0 = nn.linear %x {params = "fc"} : (tensor<2x4xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}

// -----

nn.graph @linear_batch(%x: tensor<2x4xf64>) -> tensor<5x3xf64> {
  // expected-error @+1 {{'nn.linear' op result type 'tensor<5x3xf64>' does not match the shape rule: expected 'tensor<2x3xf64>'}}
  %0 = nn.linear %x {params = "fc"} : (tensor<2x4xf64>) -> tensor<5x3xf64>
  nn.return %0 : tensor<5x3xf64>
}

// -----

nn.graph @matmul_vector(%a: tensor<3xf64>, %b: tensor<3x2xf64>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.matmul' op operands must both have rank 2 ([m, n]·[n, p]) or both rank 3 ([B, m, n]·[B, n, p]), but got 'tensor<3xf64>' and 'tensor<3x2xf64>'}}
  %0 = nn.matmul %a, %b : (tensor<3xf64>, tensor<3x2xf64>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @matmul_rank4(%a: tensor<1x2x3x4xf64>, %b: tensor<1x2x4x5xf64>) -> tensor<1x2x3x5xf64> {
  // expected-error @+1 {{'nn.matmul' op operands must both have rank 2 ([m, n]·[n, p]) or both rank 3 ([B, m, n]·[B, n, p]), but got 'tensor<1x2x3x4xf64>' and 'tensor<1x2x4x5xf64>'}}
  %0 = nn.matmul %a, %b : (tensor<1x2x3x4xf64>, tensor<1x2x4x5xf64>) -> tensor<1x2x3x5xf64>
  nn.return %0 : tensor<1x2x3x5xf64>
}

// -----

nn.graph @matmul_inner(%a: tensor<2x3xf64>, %b: tensor<4x5xf64>) -> tensor<2x5xf64> {
  // expected-error @+1 {{'nn.matmul' op inner dimensions differ: 'tensor<2x3xf64>' has 3 columns, 'tensor<4x5xf64>' has 4 rows}}
  %0 = nn.matmul %a, %b : (tensor<2x3xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  nn.return %0 : tensor<2x5xf64>
}

// -----

nn.graph @matmul_batch(%a: tensor<2x2x3xf64>, %b: tensor<3x3x5xf64>) -> tensor<2x2x5xf64> {
  // expected-error @+1 {{'nn.matmul' op batch dimensions differ: 2 and 3}}
  %0 = nn.matmul %a, %b : (tensor<2x2x3xf64>, tensor<3x3x5xf64>) -> tensor<2x2x5xf64>
  nn.return %0 : tensor<2x2x5xf64>
}

// -----

nn.graph @matmul_result(%a: tensor<2x3xf64>, %b: tensor<3x5xf64>) -> tensor<5x2xf64> {
  // expected-error @+1 {{'nn.matmul' op result type 'tensor<5x2xf64>' does not match the shape rule: expected 'tensor<2x5xf64>'}}
  %0 = nn.matmul %a, %b : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<5x2xf64>
  nn.return %0 : tensor<5x2xf64>
}

// -----

nn.graph @conv_rank(%x: tensor<8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op input must have rank 3 ([C, H, W]) or 4 ([N, C, H, W]), but got 'tensor<8x8xf64>'}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 1} : (tensor<8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_channels(%x: tensor<0x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op input must have at least one channel, but has 0}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 1} : (tensor<0x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_kernel_rank(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op kernel must be [kH, kW], but has 1 entries}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3], stride = 1} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_kernel_zero(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op kernel width must be positive, but got 0}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 0], stride = 1} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_kernel_kind(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op attribute 'kernel' must be an array of integers, but element #1 is a string attribute}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, "3"], stride = 1} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_stride(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op stride must be positive, but got 0}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 0} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_stride_missing(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op requires attribute 'stride'}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3]} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_padding(%x: tensor<1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op padding must be non-negative, but got -1}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 1, padding = -1} : (tensor<1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_fit(%x: tensor<1x2x8xf64>) -> tensor<4x1x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op kernel 3x3 does not fit the padded input 2x8 (padding 0)}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 1} : (tensor<1x2x8xf64>) -> tensor<4x1x6xf64>
  nn.return %0 : tensor<4x1x6xf64>
}

// -----

nn.graph @conv_result_rank(%x: tensor<2x1x8x8xf64>) -> tensor<4x6x6xf64> {
  // expected-error @+1 {{'nn.conv2d' op result type 'tensor<4x6x6xf64>' must have the input's rank 4}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 1} : (tensor<2x1x8x8xf64>) -> tensor<4x6x6xf64>
  nn.return %0 : tensor<4x6x6xf64>
}

// -----

nn.graph @conv_output_size(%x: tensor<2x1x8x8xf64>) -> tensor<2x4x4x4xf64> {
  // expected-error @+1 {{'nn.conv2d' op result type 'tensor<2x4x4x4xf64>' does not match the shape rule: expected 'tensor<2x4x3x3xf64>'}}
  %0 = nn.conv2d %x {params = "conv", kernel = [3, 3], stride = 2} : (tensor<2x1x8x8xf64>) -> tensor<2x4x4x4xf64>
  nn.return %0 : tensor<2x4x4x4xf64>
}
