nn.graph @mse_loss(%x0: tensor<3x4xf64>, %x1: tensor<3x4xf64>) -> tensor<f64> {
  %v0 = nn.mse_loss %x0, %x1 : (tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<f64>
  nn.return %v0 : tensor<f64>
}
