nn.graph @inv(%x0: tensor<16xf64>) -> tensor<16xf64> {
  %v0 = nn.inv %x0 : (tensor<16xf64>) -> tensor<16xf64>
  nn.return %v0 : tensor<16xf64>
}
