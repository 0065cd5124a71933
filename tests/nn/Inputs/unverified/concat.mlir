// concat along axis 3 of rank-2 tensors.
nn.graph @g(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<4x3xf64> {
  %0 = nn.concat %a, %b {axis = 3} : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<4x3xf64>
  nn.return %0 : tensor<4x3xf64>
}
