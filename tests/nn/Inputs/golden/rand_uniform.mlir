nn.graph @rand_uniform(%x0: tensor<2xf64>) -> (tensor<3x4xf64>, tensor<5xf64>) {
  %v0 = nn.rand_uniform {seed = 42} : () -> tensor<3x4xf64>
  %v1 = nn.rand_uniform {seed = 18446744073709551615 : ui64} : () -> tensor<5xf64>
  nn.return %v0, %v1 : tensor<3x4xf64>, tensor<5xf64>
}
