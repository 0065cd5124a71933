nn.graph @matmul(%x0: tensor<3x4xf64>, %x1: tensor<4x2xf64>) -> tensor<3x2xf64> {
  %v0 = nn.matmul %x0, %x1 : (tensor<3x4xf64>, tensor<4x2xf64>) -> tensor<3x2xf64>
  nn.return %v0 : tensor<3x2xf64>
}
