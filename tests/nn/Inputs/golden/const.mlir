nn.graph @const() -> tensor<2x3xf64> {
  %v0 = nn.const {params = "w"} : () -> tensor<2x3xf64>
  nn.return %v0 : tensor<2x3xf64>
}
