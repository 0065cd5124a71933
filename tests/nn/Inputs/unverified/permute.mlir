// permute with a permutation that names dimensions the tensor lacks.
nn.graph @g(%x: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = nn.permute %x {perm = [5, 9]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  nn.return %0 : tensor<3x2xf64>
}
