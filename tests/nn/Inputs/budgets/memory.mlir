// One value of 2 GiB beside its input: beyond the evaluator's memory budget
// (2 GiB), refused at the node before it allocates.
nn.graph @g(%x: tensor<1xf64>) -> tensor<16384x16384xf64> {
  %a = nn.broadcast_to %x : (tensor<1xf64>) -> tensor<16384x16384xf64>
  nn.return %a : tensor<16384x16384xf64>
}
