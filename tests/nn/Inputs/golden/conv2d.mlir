nn.graph @conv2d(%x0: tensor<2x5x6xf64>) -> tensor<3x5x6xf64> {
  %v0 = nn.conv2d %x0 {kernel = [3, 3], padding = 1, params = "conv", stride = 1} : (tensor<2x5x6xf64>) -> tensor<3x5x6xf64>
  nn.return %v0 : tensor<3x5x6xf64>
}
