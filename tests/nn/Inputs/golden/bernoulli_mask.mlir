nn.graph @bernoulli_mask(%x0: tensor<f64>) -> tensor<4x5xf64> {
  %v0 = nn.bernoulli_mask %x0 {seed = 7} : (tensor<f64>) -> tensor<4x5xf64>
  nn.return %v0 : tensor<4x5xf64>
}
