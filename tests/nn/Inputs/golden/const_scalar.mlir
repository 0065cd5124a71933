nn.graph @const_scalar() -> tensor<f64> {
  %v0 = nn.const {params = "k"} : () -> tensor<f64>
  nn.return %v0 : tensor<f64>
}
