nn.graph @layer_norm(%x0: tensor<2x3x4xf64>) -> (tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>) {
  %v0 = nn.layer_norm %x0 {axis = 0} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %v1 = nn.layer_norm %x0 {axis = 1} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %v2 = nn.layer_norm %x0 {axis = 2} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  %v3 = nn.layer_norm %x0 {axis = 1, epsilon = 1.0e-01} : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  nn.return %v0, %v1, %v2, %v3 : tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>, tensor<2x3x4xf64>
}
