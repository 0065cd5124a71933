nn.graph @max_pool2d(%x0: tensor<2x5x6xf64>) -> tensor<2x2x3xf64> {
  %v0 = nn.max_pool2d %x0 {kernel = [2, 2], padding = 0, stride = 2} : (tensor<2x5x6xf64>) -> tensor<2x2x3xf64>
  nn.return %v0 : tensor<2x2x3xf64>
}
