// The alkaid-mlp conformance case (../shared/conformance/alir/alkaid-mlp/:
// graph.mlir with the types of its quant.json written in): %x is quantized
// on entry (i9 at 1/8), the linear outputs %0, %2, %4 are exact (f64), the
// relus %1, %3, %5 floor and wrap into u7 at 1/8, the last linear %6 into
// i12 at 1/8. Run it with --params ../shared/conformance/alir/alkaid-mlp/params.npz.
nn.graph @mlp(%x: tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>> {
  %0 = nn.linear %x {params = "fc1"} : (tensor<16x!quant.uniform<i9:f64, 0.125>>) -> tensor<64xf64>
  %1 = nn.relu %0 : (tensor<64xf64>) -> tensor<64x!quant.uniform<u7:f64, 0.125>>
  %2 = nn.linear %1 {params = "fc2"} : (tensor<64x!quant.uniform<u7:f64, 0.125>>) -> tensor<32xf64>
  %3 = nn.relu %2 : (tensor<32xf64>) -> tensor<32x!quant.uniform<u7:f64, 0.125>>
  %4 = nn.linear %3 {params = "fc3"} : (tensor<32x!quant.uniform<u7:f64, 0.125>>) -> tensor<32xf64>
  %5 = nn.relu %4 : (tensor<32xf64>) -> tensor<32x!quant.uniform<u7:f64, 0.125>>
  %6 = nn.linear %5 {params = "fc4"} : (tensor<32x!quant.uniform<u7:f64, 0.125>>) -> tensor<5x!quant.uniform<i12:f64, 0.125>>
  nn.return %6 : tensor<5x!quant.uniform<i12:f64, 0.125>>
}
