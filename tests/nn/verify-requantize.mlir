// The rules of nn.requantize (dialect/nn/requant.go, docs/nn.md
// "Quantized graphs"): a quantized result of the operand's shape, an f64
// or quantized operand, QONNX's rounding words and saturate or wrap. The
// last case is a correct use, which verifies clean.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @f64_result(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.requantize' op result must have a quantized element type, but got 'tensor<4xf64>'}}
  %0 = nn.requantize %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @f32_operand(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.const' op result type 'tensor<4xf32>' in a quantized graph}}
  %0 = nn.const {params = "c"} : () -> tensor<4xf32>
  // expected-error @+1 {{'nn.requantize' op operands and result must have the same element type, but got 'f32' and '!quant.uniform<i4:f64, 0.25>'}}
  %1 = nn.requantize %0 : (tensor<4xf32>) -> tensor<4x!quant.uniform<i4:f64, 0.25>>
  nn.return %1 : tensor<4x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @shape(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2x2x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.requantize' op result type 'tensor<2x2x!quant.uniform<i4:f64, 0.25>>' does not match the shape rule: expected 'tensor<4x!quant.uniform<i4:f64, 0.25>>'}}
  %0 = nn.requantize %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2x2x!quant.uniform<i4:f64, 0.25>>
  nn.return %0 : tensor<2x2x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @rounding(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.requantize' op unknown rounding mode 'NEAREST' (expected one of ROUND, CEIL, FLOOR, UP, DOWN, HALF_UP, HALF_DOWN)}}
  %0 = nn.requantize %x {rounding = "NEAREST"} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>>
  nn.return %0 : tensor<4x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @rounding_kind(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.requantize' op attribute 'rounding' must be a string attribute, but got an integer attribute}}
  %0 = nn.requantize %x {rounding = 3} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>>
  nn.return %0 : tensor<4x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @overflow(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.requantize' op unknown overflow mode 'clamp' (expected one of saturate, wrap)}}
  %0 = nn.requantize %x {overflow = "clamp"} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>>
  nn.return %0 : tensor<4x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @operands(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>> {
  // expected-error @+1 {{'nn.requantize' op expects 1 operand, but got 2}}
  %0 = "nn.requantize"(%x, %x) : (tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 0.25>>
  nn.return %0 : tensor<4x!quant.uniform<i4:f64, 0.25>>
}

// -----

nn.graph @valid(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> (tensor<4x!quant.uniform<u4:f64, 0.25>>, tensor<4x!quant.uniform<i4:f64, 2.0>>) {
  %0 = nn.add %x, %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  %1 = nn.requantize %0 {overflow = "saturate", rounding = "ROUND"} : (tensor<4xf64>) -> tensor<4x!quant.uniform<u4:f64, 0.25>>
  %2 = nn.requantize %x {overflow = "wrap"} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i4:f64, 2.0>>
  nn.return %1, %2 : tensor<4x!quant.uniform<u4:f64, 0.25>>, tensor<4x!quant.uniform<i4:f64, 2.0>>
}
