// nn-to-otir's diagnostics, each at the graph or node concerned
// (docs/nn-to-circuit.md); what the verifier rejects in a quantized graph
// (an f64 argument, an exact division by a count that is not a power of
// two, ...) is tests/nn/verify-quant.mlir's. The payload is alkaid-mlp's
// (fc1.weight [64, 16], fc1.bias [64], ...).
// REQUIRES: shared
// RUN: otir-opt %s --split-input-file --verify-diagnostics --nn-to-otir --params %S/../../../shared/conformance/alir/alkaid-mlp/params.npz

// expected-error @+1 {{graph @plain is not quantized: no tensor has a !quant.uniform element type (write the types, or run nn-quantize first)}}
nn.graph @plain(%x: tensor<4xf64>) -> tensor<4xf64> {
  %0 = nn.relu %x : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @missing(%x: tensor<16x!quant.uniform<i8:f64, 0.125>>) -> tensor<64xf64> {
  // expected-error @+1 {{the payload has no entry 'fc9.weight' (give the parameters with --params FILE.npz)}}
  %0 = nn.linear %x {params = "fc9"} : (tensor<16x!quant.uniform<i8:f64, 0.125>>) -> tensor<64xf64>
  nn.return %0 : tensor<64xf64>
}

// -----

nn.graph @misshapen(%x: tensor<8x!quant.uniform<i8:f64, 0.125>>) -> tensor<64xf64> {
  // expected-error @+1 {{payload entry 'fc1.weight' has shape [64 16], but the node needs [64 8]}}
  %0 = nn.linear %x {params = "fc1"} : (tensor<8x!quant.uniform<i8:f64, 0.125>>) -> tensor<64xf64>
  nn.return %0 : tensor<64xf64>
}

// -----

nn.graph @wide(%x: tensor<2x!quant.uniform<i30:f64, 0.125>>) -> tensor<2xf64> {
  %0 = nn.mul %x, %x : (tensor<2x!quant.uniform<i30:f64, 0.125>>, tensor<2x!quant.uniform<i30:f64, 0.125>>) -> tensor<2xf64>
  // expected-error @+1 {{needs more than 62 bits: give the node a quantized result type}}
  %1 = nn.mul %0, %x : (tensor<2xf64>, tensor<2x!quant.uniform<i30:f64, 0.125>>) -> tensor<2xf64>
  nn.return %1 : tensor<2xf64>
}

// -----

// expected-error @+1 {{graph @empty: input #0 has type 'tensor<0x4x!quant.uniform<i8:f64, 0.125>>', which has no elements: a circuit has no lanes for it}}
nn.graph @empty(%x: tensor<0x4x!quant.uniform<i8:f64, 0.125>>) -> tensor<0x4x!quant.uniform<u8:f64, 0.125>> {
  %0 = nn.relu %x : (tensor<0x4x!quant.uniform<i8:f64, 0.125>>) -> tensor<0x4x!quant.uniform<u8:f64, 0.125>>
  nn.return %0 : tensor<0x4x!quant.uniform<u8:f64, 0.125>>
}


// -----

// nn.requantize rounds with int64 constants: dropping 62 bits of a 63-bit
// exact value is refused (a narrower operand type avoids it).
nn.graph @requantize_wide(%x: tensor<2x!quant.uniform<i32:f64, 4.656612873077393e-10>>, %y: tensor<2x!quant.uniform<i31:f64, 4.656612873077393e-10>>) -> tensor<2x!quant.uniform<i8:f64, 1.0>> {
  %0 = nn.mul %x, %y : (tensor<2x!quant.uniform<i32:f64, 4.656612873077393e-10>>, tensor<2x!quant.uniform<i31:f64, 4.656612873077393e-10>>) -> tensor<2xf64>
  // expected-error @+1 {{'nn.requantize' op rounds off 62 bits of an exact value (at most 61): give its operand a narrower type}}
  %1 = nn.requantize %0 {rounding = "ROUND"} : (tensor<2xf64>) -> tensor<2x!quant.uniform<i8:f64, 1.0>>
  nn.return %1 : tensor<2x!quant.uniform<i8:f64, 1.0>>
}
