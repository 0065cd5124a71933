// nn-absorb-quant's diagnostics (docs/nn-to-circuit.md, "QONNX graphs:
// absorbing quantizers"), each at the node or argument concerned. The
// payload is Inputs/qonnx-mlp's (qin.*, qa.*, w1 [12, 8], qw1.*, ...).
// RUN: otir-opt %s --split-input-file --verify-diagnostics --nn-absorb-quant --params %S/Inputs/qonnx-mlp/params.npz

// An input that no nn.quant reads, without input-type.
// expected-error @+1 {{graph @unquantized: input #0 is not quantized by the graph (no nn.quant reads it through shape-only nodes): give the circuit's input type with nn-to-circuit{input-type=fixed<W,I>} or ufixed<W,I>}}
nn.graph @unquantized(%x: tensor<1x4xf64>) -> tensor<1x4xf64> {
  %0 = nn.relu %x : (tensor<1x4xf64>) -> tensor<1x4xf64>
  %1 = nn.quant %0 {params = "qa", bits = 4} : (tensor<1x4xf64>) -> tensor<1x4xf64>
  nn.return %1 : tensor<1x4xf64>
}

// -----

nn.graph @missing(%x: tensor<1x4xf64>) -> tensor<1x4xf64> {
  // expected-error @+1 {{the payload has no entry 'nope.scale' (give the parameters with --params FILE.npz)}}
  %0 = nn.quant %x {params = "nope", bits = 4} : (tensor<1x4xf64>) -> tensor<1x4xf64>
  nn.return %0 : tensor<1x4xf64>
}

// -----

nn.graph @unsupported(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{the kind is not absorbed into integer arithmetic}}
  %1 = nn.exp %0 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %1 : tensor<1x8xf64>
}

// -----

nn.graph @kink(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.const {value = dense<0.3> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
  %2 = nn.add %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.relu %2 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{output #0: a relu of element 0 has its kink between two codes}}
  nn.return %3 : tensor<1x8xf64>
}

// -----

nn.graph @division(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.const {value = dense<3.0> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
  %2 = nn.inv %1 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.mul %0, %2 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{output #0: its value 1/3072·code + 0 (element 0) is not a fixed-point number}}
  nn.return %3 : tensor<1x8xf64>
}

// -----

// 1024 classes at softmax-bits=10: inv's operand holds [1, 1024] at 2^-10.
nn.graph @softmax_wide(%x: tensor<1x1024xf64>) -> tensor<1x1024xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x1024xf64>) -> tensor<1x1024xf64>
  // expected-error @+1 {{the softmax's inv table would have 2^21 entries (at most 2^20): give a smaller softmax-bits (now 10) or drop-final-softmax=true}}
  %1 = nn.softmax %0 {axis = 1} : (tensor<1x1024xf64>) -> tensor<1x1024xf64>
  nn.return %1 : tensor<1x1024xf64>
}

// -----

// The operand of a softmax must have an exact fixed-point value.
nn.graph @softmax_division(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.const {value = dense<3.0> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
  %2 = nn.inv %1 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.mul %0, %2 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{the softmax's operand has no exact fixed-point value (its value 1/3072·code + 0 (element 0) is not a fixed-point number): give drop-final-softmax=true to end the circuit at the logits}}
  %4 = nn.softmax %3 {axis = 1} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %4 : tensor<1x8xf64>
}

// -----

// An nn.max of two different tensors (LeakyRelu's max(x, α·x) is of one).
nn.graph @max_of_two(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.quant %0 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{an nn.max of two different tensors that depend on the input is not absorbed}}
  %2 = nn.max %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.quant %2 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %3 : tensor<1x8xf64>
}

// -----

// LeakyRelu with a negative α: max(x, −x) = |x| is not monotone.
nn.graph @leaky_negative(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.const {value = dense<-1.0> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
  %2 = nn.mul %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{element 0: the max of an increasing and a decreasing function of one code is not monotone}}
  %3 = nn.max %0, %2 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %4 = nn.quant %3 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %4 : tensor<1x8xf64>
}

// -----

// LeakyRelu's max(x, α·x) reaching a product with no quantizer between.
nn.graph @leaky_unquantized(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.const {value = dense<0.25> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
  %2 = nn.mul %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.max %0, %2 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{an nn.max or nn.min of two functions of one code (LeakyRelu's), an nn.sigmoid or nn.tanh, or an nn.mul of two functions of one code (HardSwish's, SiLU's) reaches a product}}
  %4 = nn.add %3, %3 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %5 = nn.quant %4 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %5 : tensor<1x8xf64>
}

// -----

// A sigmoid reaching a join with no quantizer between.
nn.graph @sigmoid_unquantized(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.sigmoid %0 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{an nn.sigmoid or nn.tanh, or an nn.mul of two functions of one code (HardSwish's, SiLU's) reaches a product, a join, a pool or an output with no quantizer after it}}
  %2 = nn.add %1, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %3 = nn.quant %2 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %3 : tensor<1x8xf64>
}

// -----

// SiLU, x·sigmoid(x), reaching a join with no quantizer between: only a
// quantizer absorbs a product of two functions of one code.
nn.graph @silu_unquantized(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.sigmoid %0 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %2 = nn.mul %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{or an nn.mul of two functions of one code (HardSwish's, SiLU's) reaches a product, a join, a pool or an output with no quantizer after it}}
  %3 = nn.add %2, %0 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %4 = nn.quant %3 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %4 : tensor<1x8xf64>
}

// -----

// The max of a product of two functions of one code and another function
// of it: not monotone, and no step absorbs it.
nn.graph @product_max(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
  %0 = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %1 = nn.sigmoid %0 : (tensor<1x8xf64>) -> tensor<1x8xf64>
  %2 = nn.mul %0, %1 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  // expected-error @+1 {{element 0: the max of a product of two functions of one code (HardSwish's, SiLU's) has no absorbed form: a quantizer before it absorbs the product}}
  %3 = nn.max %2, %0 : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
  %4 = nn.quant %3 {params = "qa", bits = 4} : (tensor<1x8xf64>) -> tensor<1x8xf64>
  nn.return %4 : tensor<1x8xf64>
}
