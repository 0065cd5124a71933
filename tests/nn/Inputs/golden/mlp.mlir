nn.graph @mlp(%x0: tensor<4x6xf64>) -> tensor<4x3xf64> {
  %v0 = nn.linear %x0 {params = "fc1"} : (tensor<4x6xf64>) -> tensor<4x8xf64>
  %v1 = nn.relu %v0 : (tensor<4x8xf64>) -> tensor<4x8xf64>
  %v2 = nn.linear %v1 {params = "fc2"} : (tensor<4x8xf64>) -> tensor<4x3xf64>
  %v3 = nn.softmax %v2 {axis = 1} : (tensor<4x3xf64>) -> tensor<4x3xf64>
  nn.return %v3 : tensor<4x3xf64>
}
