nn.graph @g(%x: tensor<4xf64>) -> tensor<3xf64> {
  %0 = nn.linear %x {params = "fc"} : (tensor<4xf64>) -> tensor<3xf64>
  nn.return %0 : tensor<3xf64>
}
