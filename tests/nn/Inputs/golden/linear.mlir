nn.graph @linear(%x0: tensor<5xf64>) -> tensor<3xf64> {
  %v0 = nn.linear %x0 {params = "fc"} : (tensor<5xf64>) -> tensor<3xf64>
  nn.return %v0 : tensor<3xf64>
}
