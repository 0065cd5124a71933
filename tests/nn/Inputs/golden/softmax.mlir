nn.graph @softmax(%x0: tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>) {
  %v0 = nn.softmax %x0 {axis = 0} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %v1 = nn.softmax %x0 {axis = 1} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %v2 = nn.softmax %x0 {axis = 2} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  nn.return %v0, %v1, %v2 : tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>
}
