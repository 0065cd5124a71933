// A reshape from 4 to 5 elements.
nn.graph @g(%x: tensor<4xf64>) -> tensor<5xf64> {
  %0 = nn.reshape %x {shape = [5]} : (tensor<4xf64>) -> tensor<5xf64>
  nn.return %0 : tensor<5xf64>
}
