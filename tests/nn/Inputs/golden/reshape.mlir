nn.graph @reshape(%x0: tensor<2x3x4xf64>) -> (tensor<4x6xf64>, tensor<24x1xf64>) {
  %v0 = nn.reshape %x0 : (tensor<2x3x4xf64>) -> tensor<4x6xf64>
  %v1 = nn.reshape %x0 : (tensor<2x3x4xf64>) -> tensor<24x1xf64>
  nn.return %v0, %v1 : tensor<4x6xf64>, tensor<24x1xf64>
}
