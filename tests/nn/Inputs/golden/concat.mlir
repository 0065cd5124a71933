nn.graph @concat(%x0: tensor<2x1x3xf64>, %x1: tensor<2x2x3xf64>, %x2: tensor<2x3x3xf64>) -> (tensor<2x6x3xf64>, tensor<4x1x3xf64>) {
  %v0 = nn.concat %x0, %x1, %x2 {axis = 1} : (tensor<2x1x3xf64>, tensor<2x2x3xf64>, tensor<2x3x3xf64>) -> tensor<2x6x3xf64>
  %v1 = nn.concat %x0, %x0 {axis = 0} : (tensor<2x1x3xf64>, tensor<2x1x3xf64>) -> tensor<4x1x3xf64>
  nn.return %v0, %v1 : tensor<2x6x3xf64>, tensor<4x1x3xf64>
}
