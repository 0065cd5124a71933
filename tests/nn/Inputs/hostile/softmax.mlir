nn.graph @g(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = nn.softmax %x {axis = 1} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}
