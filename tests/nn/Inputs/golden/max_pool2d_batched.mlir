nn.graph @max_pool2d_batched(%x0: tensor<2x3x6x5xf64>) -> tensor<2x3x6x6xf64> {
  %v0 = nn.max_pool2d %x0 {kernel = [3, 2], padding = 1, stride = 1} : (tensor<2x3x6x5xf64>) -> tensor<2x3x6x6xf64>
  nn.return %v0 : tensor<2x3x6x6xf64>
}
