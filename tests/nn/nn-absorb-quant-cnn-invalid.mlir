// nn-absorb-quant's diagnostics on convolutions and pools (docs/nn-to-circuit.md,
// "QONNX graphs: absorbing quantizers"), each at the node concerned. The
// payload: Inputs/qonnx-cnn/gen.py's params.npz (qin.*, c.weight [1, 1, 3, 3], c.bias).
// RUN: otir-opt %s --split-input-file --verify-diagnostics --nn-absorb-quant --params %S/Inputs/qonnx-cnn/params.npz

// A factor that varies within an input channel has no one integer weight.
nn.graph @scales(%x: tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64> {
  %0 = nn.quant %x {params = "qin", bits = 8} : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  %1 = nn.const {value = dense<[[[[1.0, 2.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]]]]> : tensor<1x1x4x4xf64>} : () -> tensor<1x1x4x4xf64>
  %2 = nn.mul %0, %1 : (tensor<1x1x4x4xf64>, tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  // expected-error @+1 {{the input's scale varies within channel 0 (1/4 and 1/2): a convolution needs one factor per input channel}}
  %3 = nn.conv2d %2 {kernel = [3, 3], params = "c", stride = 1} : (tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64>
  nn.return %3 : tensor<1x1x2x2xf64>
}

// -----

// An offset before a padded convolution gives its border elements other
// offsets than the inner ones: a max pool over both has no one function.
nn.graph @borders(%x: tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64> {
  %0 = nn.quant %x {params = "qin", bits = 8} : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  %1 = nn.const {value = dense<1.0> : tensor<1x1x4x4xf64>} : () -> tensor<1x1x4x4xf64>
  %2 = nn.add %0, %1 : (tensor<1x1x4x4xf64>, tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  %3 = nn.conv2d %2 {kernel = [3, 3], padding = 1, params = "c", stride = 1} : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  // expected-error @+1 {{the elements of window (0, 0) of plane 0 are different functions of their codes (scales or offsets differ): a quantizer before the pool makes them one}}
  %4 = nn.max_pool2d %3 {kernel = [2, 2], stride = 2} : (tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64>
  %5 = nn.quant %4 {params = "qin", bits = 8} : (tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
  nn.return %5 : tensor<1x1x2x2xf64>
}

// -----

// A max pool of SiLU's x·sigmoid(x), not monotone: the max of the codes is
// not the codes of the max.
nn.graph @silu_pool(%x: tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64> {
  %0 = nn.quant %x {params = "qin", bits = 8} : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  %1 = nn.sigmoid %0 : (tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  %2 = nn.mul %0, %1 : (tensor<1x1x4x4xf64>, tensor<1x1x4x4xf64>) -> tensor<1x1x4x4xf64>
  // expected-error @+1 {{the elements of plane 0 are products of two functions of their codes (HardSwish's, SiLU's), not monotone: a quantizer before the max pool absorbs them}}
  %3 = nn.max_pool2d %2 {kernel = [2, 2], stride = 2} : (tensor<1x1x4x4xf64>) -> tensor<1x1x2x2xf64>
  %4 = nn.quant %3 {params = "qin", bits = 8} : (tensor<1x1x2x2xf64>) -> tensor<1x1x2x2xf64>
  nn.return %4 : tensor<1x1x2x2xf64>
}
