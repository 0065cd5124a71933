nn.graph @sum(%x0: tensor<2x3x4xf64>) -> tensor<f64> {
  %v0 = nn.sum %x0 : (tensor<2x3x4xf64>) -> tensor<f64>
  nn.return %v0 : tensor<f64>
}
