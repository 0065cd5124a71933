// nn.relu's result must have its operand's type.
nn.graph @g(%x: tensor<4xf64>) -> tensor<1000xf64> {
  %0 = nn.relu %x : (tensor<4xf64>) -> tensor<1000xf64>
  nn.return %0 : tensor<1000xf64>
}
