nn.graph @detach(%x0: tensor<2x3x4xf64>) -> tensor<2x3x4xf64> {
  %v0 = nn.detach %x0 : (tensor<2x3x4xf64>) -> tensor<2x3x4xf64>
  nn.return %v0 : tensor<2x3x4xf64>
}
