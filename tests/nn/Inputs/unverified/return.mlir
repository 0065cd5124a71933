// nn.return of a value whose type is not the graph's result type.
nn.graph @g(%x: tensor<4xf64>) -> tensor<2xf64> {
  %0 = nn.relu %x : (tensor<4xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}
