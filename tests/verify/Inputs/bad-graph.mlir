nn.graph @g(%a: tensor<2x3xf64>, %b: tensor<4x5xf64>) -> tensor<2x5xf64> {
  %0 = nn.matmul %a, %b : (tensor<2x3xf64>, tensor<4x5xf64>) -> tensor<2x5xf64>
  nn.return %0 : tensor<2x5xf64>
}
