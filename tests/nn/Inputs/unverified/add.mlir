// nn.add of tensor<4> and tensor<2>: the shapes do not broadcast.
nn.graph @g(%a: tensor<4xf64>, %b: tensor<2xf64>) -> tensor<4xf64> {
  %0 = nn.add %a, %b : (tensor<4xf64>, tensor<2xf64>) -> tensor<4xf64>
  nn.return %0 : tensor<4xf64>
}
