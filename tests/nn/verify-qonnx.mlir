// The records of the QONNX quantizers (dialect/nn/qonnx.go, docs/nn.md
// "QONNX quantizers"): bit widths in [1, 32], out_bits at most in_bits,
// boolean flags, a rounding mode, trunc's version 1 or 2, a payload name;
// and a quantizer is a float-graph node, not allowed in a quantized graph.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @wide(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op bits must lie in [1, 32], but got 33}}
  %0 = nn.quant %x {params = "q", bits = 33} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @zero(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op bits must lie in [1, 32], but got 0}}
  %0 = nn.quant %x {params = "q", bits = 0} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @nobits(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op requires attribute 'bits'}}
  %0 = nn.quant %x {params = "q"} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @flag(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op attribute 'signed' must be true or false, but got}}
  %0 = nn.quant %x {params = "q", bits = 4, signed = 1} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @mode(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op unknown rounding mode 'HALF_EVEN' (expected one of ROUND, CEIL, FLOOR, UP, DOWN, HALF_UP, HALF_DOWN)}}
  %0 = nn.quant %x {params = "q", bits = 4, rounding = "HALF_EVEN"} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @noparams(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.bipolar_quant' op requires attribute 'params'}}
  %0 = nn.bipolar_quant %x : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @widen(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.trunc' op out_bits (8) must not exceed in_bits (4)}}
  %0 = nn.trunc %x {params = "t", in_bits = 4, out_bits = 8} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @truncmode(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.trunc' op unknown rounding mode 'floor' (expected one of ROUND, CEIL, FLOOR, UP, DOWN, HALF_UP, HALF_DOWN)}}
  %0 = nn.trunc %x {params = "t", in_bits = 8, out_bits = 4, rounding = "floor"} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @version(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.trunc' op version must be 1 or 2, but got 3}}
  %0 = nn.trunc %x {params = "t", in_bits = 8, out_bits = 4, version = 3} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @float_quant_bits(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.float_quant' op exponent_bits must lie in [1, 8], but got 9}}
  %0 = nn.float_quant %x {params = "f", exponent_bits = 9, mantissa_bits = 3, exponent_bias = 7} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @float_quant_bias(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.float_quant' op requires attribute 'exponent_bias'}}
  %0 = nn.float_quant %x {params = "f", exponent_bits = 4, mantissa_bits = 3} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @float_quant_mantissa(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.float_quant' op mantissa_bits must lie in [0, 23], but got -1}}
  %0 = nn.float_quant %x {params = "f", exponent_bits = 4, mantissa_bits = -1, exponent_bias = 7} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @multithreshold_axis(%x: tensor<2x4xf64>) -> tensor<2x4xf64> {
  // expected-error @+1 {{'nn.multithreshold' op axis 2 is out of range for an operand of rank 2}}
  %0 = nn.multithreshold %x {params = "m", axis = 2} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  nn.return %0 : tensor<2x4xf64>
}

// -----

nn.graph @multithreshold_default_axis(%x: tensor<4xf64>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.multithreshold' op axis 1 is out of range for an operand of rank 1}}
  %0 = nn.multithreshold %x {params = "m"} : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @multithreshold_scale(%x: tensor<2x4xf64>) -> tensor<2x4xf64> {
  // expected-error @+1 {{'nn.multithreshold' op attribute 'out_scale' must be a float attribute, but got}}
  %0 = nn.multithreshold %x {params = "m", out_scale = 2} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  nn.return %0 : tensor<2x4xf64>
}

// -----

nn.graph @multithreshold_params(%x: tensor<2x4xf64>) -> tensor<2x4xf64> {
  // expected-error @+1 {{'nn.multithreshold' op requires attribute 'params'}}
  %0 = nn.multithreshold %x {axis = 1} : (tensor<2x4xf64>) -> tensor<2x4xf64>
  nn.return %0 : tensor<2x4xf64>
}

// -----

nn.graph @quantized(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.quant' op is not allowed in a quantized graph: a QONNX quantizer belongs to a float graph: nn-to-circuit absorbs it into integer arithmetic}}
  %0 = nn.quant %x {params = "q", bits = 4} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}
