nn.graph @swap_first_two(%x0: tensor<2x3x4xf64>) -> tensor<3x2x4xf64> {
  %v0 = nn.swap_first_two %x0 : (tensor<2x3x4xf64>) -> tensor<3x2x4xf64>
  nn.return %v0 : tensor<3x2x4xf64>
}
