// softmax over axis 2 of a rank-2 tensor.
nn.graph @g(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = nn.softmax %x {axis = 2} : (tensor<2x3xf64>) -> tensor<2x3xf64>
  nn.return %0 : tensor<2x3xf64>
}
