nn.graph @min(%x0: tensor<3x4xf64>, %x1: tensor<3x4xf64>) -> tensor<3x4xf64> {
  %v0 = nn.min %x0, %x1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>
  nn.return %v0 : tensor<3x4xf64>
}
