// A product of 2x3 by 3x2: 12 multiply-accumulates a sample (--max-work).
nn.graph @g(%x: tensor<2x3xf64>, %y: tensor<3x2xf64>) -> tensor<2x2xf64> {
  %p = nn.matmul %x, %y : (tensor<2x3xf64>, tensor<3x2xf64>) -> tensor<2x2xf64>
  nn.return %p : tensor<2x2xf64>
}
