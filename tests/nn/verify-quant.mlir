// The rules of quantized graphs (dialect/nn/quantized.go, docs/nn.md
// "Quantized graphs"): a graph with a !quant.uniform tensor is quantized;
// its tensors are quantized or f64 (exact), its arguments quantized, its
// function kinds lookup tables between quantized types, and the kinds a
// circuit cannot compute are rejected.
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @f32_node(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>> {
  // expected-error @+1 {{'nn.const' op result type 'tensor<4xf32>' in a quantized graph: every tensor of a quantized graph is quantized or f64 (exact)}}
  %0 = nn.const {params = "c"} : () -> tensor<4xf32>
  nn.return %x : tensor<4x!quant.uniform<i8:f64, 0.0625>>
}

// -----

// expected-error @+1 {{'nn.graph' op result #1 of a quantized graph has type 'tensor<4xf32>': every tensor of a quantized graph is quantized or f64 (exact)}}
nn.graph @f32_result(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> (tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4xf32>) {
  %0 = nn.const {params = "c"} : () -> tensor<4xf32>
  nn.return %x, %0 : tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4xf32>
}

// -----

// expected-error @+1 {{'nn.graph' op argument #0 of a quantized graph must have a quantized element type, but got 'tensor<4xf64>': an argument quantizes the caller's input (f64 is for exact intermediate values)}}
nn.graph @f64_argument(%x: tensor<4xf64>) -> tensor<4x!quant.uniform<u7:f64, 0.125>> {
  %0 = nn.relu %x : (tensor<4xf64>) -> tensor<4x!quant.uniform<u7:f64, 0.125>>
  nn.return %0 : tensor<4x!quant.uniform<u7:f64, 0.125>>
}

// -----

// expected-error @+1 {{'nn.graph' op argument #1 of a quantized graph must have a quantized element type, but got 'tensor<4xf32>'}}
nn.graph @f32_argument(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>, %y: tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>> {
  nn.return %x : tensor<4x!quant.uniform<i8:f64, 0.0625>>
}

// -----

nn.graph @exp_of_exact(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<u8:f64, 0.0625>> {
  %0 = nn.add %x, %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  // expected-error @+1 {{'nn.exp' op needs quantized operand and result types in a quantized graph: a circuit computes it as a lookup table}}
  %1 = nn.exp %0 : (tensor<4xf64>) -> tensor<4x!quant.uniform<u8:f64, 0.0625>>
  nn.return %1 : tensor<4x!quant.uniform<u8:f64, 0.0625>>
}

// -----

nn.graph @sigmoid_to_exact(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.sigmoid' op needs quantized operand and result types in a quantized graph: a circuit computes it as a lookup table}}
  %0 = nn.sigmoid %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @wide_table(%x: tensor<4x!quant.uniform<i21:f64, 0.0625>>) -> tensor<4x!quant.uniform<u8:f64, 0.0625>> {
  // expected-error @+1 {{'nn.tanh' op operand type 'tensor<4x!quant.uniform<i21:f64, 0.0625>>' would need a lookup table of 2^21 entries (at most 2^20: narrow the operand)}}
  %0 = nn.tanh %x : (tensor<4x!quant.uniform<i21:f64, 0.0625>>) -> tensor<4x!quant.uniform<u8:f64, 0.0625>>
  nn.return %0 : tensor<4x!quant.uniform<u8:f64, 0.0625>>
}

// -----

nn.graph @softmax(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<u8:f64, 0.00390625>> {
  // expected-error @+1 {{'nn.softmax' op is not allowed in a quantized graph: nn-quantize lowers it to lookup tables of exp(x − max) and inv (softmax-bits)}}
  %0 = nn.softmax %x {axis = 0} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<u8:f64, 0.00390625>>
  nn.return %0 : tensor<4x!quant.uniform<u8:f64, 0.00390625>>
}

// -----

nn.graph @layer_norm(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.layer_norm' op is not allowed in a quantized graph: nn-quantize decomposes it into primitive nodes (reduce_mean, sub, mul, sqrt, inv)}}
  %0 = nn.layer_norm %x {axis = 0} : (tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @mse_loss(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<f64> {
  // expected-error @+1 {{'nn.mse_loss' op is not allowed in a quantized graph: a loss belongs to training, not to a circuit}}
  %0 = nn.mse_loss %x, %x : (tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<f64>
  nn.return %0 : tensor<f64>
}

// -----

nn.graph @rand_uniform(%x: tensor<4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>> {
  // expected-error @+1 {{'nn.rand_uniform' op is not allowed in a quantized graph: a circuit has no random source}}
  %0 = nn.rand_uniform {seed = 1} : () -> tensor<4xf64>
  nn.return %x : tensor<4x!quant.uniform<i8:f64, 0.0625>>
}

// -----

nn.graph @bernoulli_mask(%p: tensor<!quant.uniform<u8:f64, 0.00390625>>) -> tensor<4xf64> {
  // expected-error @+1 {{'nn.bernoulli_mask' op is not allowed in a quantized graph: a circuit has no random source}}
  %0 = nn.bernoulli_mask %p {seed = 1} : (tensor<!quant.uniform<u8:f64, 0.00390625>>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}

// -----

nn.graph @mean_by_three(%x: tensor<2x3x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64> {
  // expected-error @+1 {{'nn.reduce_mean' op divides by 3, not a power of two, so its exact result is not a fixed-point value: give it a quantized result type (floor division)}}
  %0 = nn.reduce_mean %x {axis = 1} : (tensor<2x3x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64>
  nn.return %0 : tensor<2xf64>
}

// -----

nn.graph @avg_pool_by_nine(%x: tensor<1x4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<1x2x2xf64> {
  // expected-error @+1 {{'nn.avg_pool2d' op divides by 9, not a power of two, so its exact result is not a fixed-point value: give it a quantized result type (floor division)}}
  %0 = nn.avg_pool2d %x {kernel = [3, 3], stride = 1} : (tensor<1x4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<1x2x2xf64>
  nn.return %0 : tensor<1x2x2xf64>
}

// -----

// A mean over a power of two into f64, a floor division by 3 into a
// quantized type, a function between quantized types: no diagnostic.
nn.graph @allowed(%x: tensor<2x4x!quant.uniform<i8:f64, 0.0625>>) -> (tensor<2xf64>, tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<2x4x!quant.uniform<u8:f64, 0.00390625>>) {
  %0 = nn.reduce_mean %x {axis = 1} : (tensor<2x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2xf64>
  %1 = nn.concat %x, %x {axis = 0} : (tensor<2x4x!quant.uniform<i8:f64, 0.0625>>, tensor<2x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x4x!quant.uniform<i8:f64, 0.0625>>
  %2 = nn.reduce_mean %1 {axis = 1} : (tensor<4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4xf64>
  %3 = nn.reshape %x : (tensor<2x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<8x!quant.uniform<i8:f64, 0.0625>>
  %4 = nn.sigmoid %x : (tensor<2x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<2x4x!quant.uniform<u8:f64, 0.00390625>>
  %5 = nn.reduce_mean %1 {axis = 0} : (tensor<4x4x!quant.uniform<i8:f64, 0.0625>>) -> tensor<4x!quant.uniform<i8:f64, 0.0625>>
  nn.return %0, %5, %4 : tensor<2xf64>, tensor<4x!quant.uniform<i8:f64, 0.0625>>, tensor<2x4x!quant.uniform<u8:f64, 0.00390625>>
}
