nn.graph @flatten(%x0: tensor<2x3x4xf64>) -> tensor<24xf64> {
  %v0 = nn.flatten %x0 : (tensor<2x3x4xf64>) -> tensor<24xf64>
  nn.return %v0 : tensor<24xf64>
}
