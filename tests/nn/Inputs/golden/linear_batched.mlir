nn.graph @linear_batched(%x0: tensor<2x4x5xf64>) -> tensor<2x4x3xf64> {
  %v0 = nn.linear %x0 {params = "fc"} : (tensor<2x4x5xf64>) -> tensor<2x4x3xf64>
  nn.return %v0 : tensor<2x4x3xf64>
}
