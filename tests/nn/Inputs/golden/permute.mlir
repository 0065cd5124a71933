nn.graph @permute(%x0: tensor<2x3x4xf64>) -> (tensor<4x2x3xf64>, tensor<2x4x3xf64>) {
  %v0 = nn.permute %x0 {perm = [2, 0, 1]} : (tensor<2x3x4xf64>) -> tensor<4x2x3xf64>
  %v1 = nn.permute %x0 {perm = [0, 2, 1]} : (tensor<2x3x4xf64>) -> tensor<2x4x3xf64>
  nn.return %v0, %v1 : tensor<4x2x3xf64>, tensor<2x4x3xf64>
}
