nn.graph @sqrt(%x0: tensor<16xf64>) -> tensor<16xf64> {
  %v0 = nn.sqrt %x0 : (tensor<16xf64>) -> tensor<16xf64>
  nn.return %v0 : tensor<16xf64>
}
