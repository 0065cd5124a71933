// The parameter types of nn.linear and nn.conv2d (dialect/nn/quantized.go,
// docs/nn.md "Parameter types"): weight_type and bias_type hold a
// !quant.uniform scalar type, in a quantized graph only.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @float_graph(%x: tensor<4xf64>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.linear' op has 'weight_type' in a graph that is not quantized: parameter types belong to quantized graphs (give its tensors quantized types, nn-quantize)}}
  %0 = nn.linear %x {params = "fc", weight_type = !quant.uniform<i8:f64, 0.0625>} : (tensor<4xf64>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @float_conv(%x: tensor<1x4x4xf64>) -> tensor<1x2x2xf64> {
  // expected-error @+1 {{'nn.conv2d' op has 'bias_type' in a graph that is not quantized}}
  %0 = nn.conv2d %x {bias_type = !quant.uniform<i8:f64, 0.0625>, kernel = [3, 3], params = "cv", stride = 1} : (tensor<1x4x4xf64>) -> tensor<1x2x2xf64>
  nn.return %0 : tensor<1x2x2xf64>
}

// -----

nn.graph @not_a_type(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.linear' op attribute 'weight_type' must be a !quant.uniform scalar type, but got '8 : i64'}}
  %0 = nn.linear %x {params = "fc", weight_type = 8} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @float_type(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.linear' op attribute 'bias_type' must be a !quant.uniform scalar type, but got 'f64'}}
  %0 = nn.linear %x {bias_type = f64, params = "fc"} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @tensor_type(%x: tensor<1x4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<1x2x2xf64> {
  // expected-error @+1 {{'nn.conv2d' op attribute 'weight_type' must be a !quant.uniform scalar type, but got 'tensor<4x!quant.uniform<i8:f64, 0.0625>>'}}
  %0 = nn.conv2d %x {kernel = [3, 3], params = "cv", stride = 1, weight_type = tensor<4x!quant.uniform<i8:f64, 0.0625>>} : (tensor<1x4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<1x2x2xf64>
  nn.return %0 : tensor<1x2x2xf64>
}
