nn.graph @matmul_batched(%x0: tensor<2x3x4xf64>, %x1: tensor<2x4x5xf64>) -> tensor<2x3x5xf64> {
  %v0 = nn.matmul %x0, %x1 : (tensor<2x3x4xf64>, tensor<2x4x5xf64>) -> tensor<2x3x5xf64>
  nn.return %v0 : tensor<2x3x5xf64>
}
