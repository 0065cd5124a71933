module {
  nn.graph @mlp(%arg0: tensor<8x2xf64>) -> tensor<8x2xf64> {
    %0 = nn.linear %arg0 {params = "fc1"} : (tensor<8x2xf64>) -> tensor<8x16xf64>
    %1 = nn.relu %0 : (tensor<8x16xf64>) -> tensor<8x16xf64>
    %2 = nn.linear %1 {params = "fc2"} : (tensor<8x16xf64>) -> tensor<8x2xf64>
    %3 = nn.softmax %2 {axis = 1} : (tensor<8x2xf64>) -> tensor<8x2xf64>
    nn.return %3 : tensor<8x2xf64>
  }
}
