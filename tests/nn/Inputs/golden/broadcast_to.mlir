nn.graph @broadcast_to(%x0: tensor<3xf64>, %x1: tensor<3x1xf64>, %x2: tensor<f64>, %x3: tensor<3xf64>, %x4: tensor<2x3xf64>, %x5: tensor<1x4xf64>) -> (tensor<2x3xf64>, tensor<2x3x5xf64>, tensor<2x2xf64>, tensor<3x3xf64>, tensor<2x2x3xf64>, tensor<2x3x4xf64>) {
  %v0 = nn.broadcast_to %x0 : (tensor<3xf64>) -> tensor<2x3xf64>
  %v1 = nn.broadcast_to %x1 : (tensor<3x1xf64>) -> tensor<2x3x5xf64>
  %v2 = nn.broadcast_to %x2 : (tensor<f64>) -> tensor<2x2xf64>
  %v3 = nn.broadcast_to %x3 : (tensor<3xf64>) -> tensor<3x3xf64>
  %v4 = nn.broadcast_to %x4 : (tensor<2x3xf64>) -> tensor<2x2x3xf64>
  %v5 = nn.broadcast_to %x5 : (tensor<1x4xf64>) -> tensor<2x3x4xf64>
  nn.return %v0, %v1, %v2, %v3, %v4, %v5 : tensor<2x3xf64>, tensor<2x3x5xf64>, tensor<2x2xf64>, tensor<3x3xf64>, tensor<2x2x3xf64>, tensor<2x3x4xf64>
}
