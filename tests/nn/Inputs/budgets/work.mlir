// A 9.7e9 multiply-accumulate convolution of a broadcast input: beyond the
// evaluator's work budget (2^32), refused at the node before it runs.
nn.graph @g(%x: tensor<1xf64>) -> tensor<1x512x64x64xf64> {
  %b = nn.broadcast_to %x : (tensor<1xf64>) -> tensor<1x512x64x64xf64>
  %c = nn.conv2d %b {kernel = [3, 3], params = "conv", stride = 1, padding = 1} : (tensor<1x512x64x64xf64>) -> tensor<1x512x64x64xf64>
  nn.return %c : tensor<1x512x64x64xf64>
}
