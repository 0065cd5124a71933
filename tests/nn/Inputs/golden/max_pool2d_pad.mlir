nn.graph @max_pool2d_pad(%x0: tensor<2x5x6xf64>) -> tensor<2x3x3xf64> {
  %v0 = nn.max_pool2d %x0 {kernel = [3, 3], padding = 1, stride = 2} : (tensor<2x5x6xf64>) -> tensor<2x3x3xf64>
  nn.return %v0 : tensor<2x3x3xf64>
}
