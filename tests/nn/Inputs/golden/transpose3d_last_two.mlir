nn.graph @transpose3d_last_two(%x0: tensor<2x3x4xf64>) -> tensor<2x4x3xf64> {
  %v0 = nn.transpose3d_last_two %x0 : (tensor<2x3x4xf64>) -> tensor<2x4x3xf64>
  nn.return %v0 : tensor<2x4x3xf64>
}
