nn.graph @conv2d_batched(%x0: tensor<2x2x7x7xf64>) -> tensor<2x4x5x5xf64> {
  %v0 = nn.conv2d %x0 {kernel = [2, 3], padding = 2, params = "conv", stride = 2} : (tensor<2x2x7x7xf64>) -> tensor<2x4x5x5xf64>
  nn.return %v0 : tensor<2x4x5x5xf64>
}
