nn.graph @conv2d_nopad(%x0: tensor<1x4x4xf64>) -> tensor<2x1x1xf64> {
  %v0 = nn.conv2d %x0 {kernel = [4, 4], padding = 0, params = "conv", stride = 1} : (tensor<1x4x4xf64>) -> tensor<2x1x1xf64>
  nn.return %v0 : tensor<2x1x1xf64>
}
