// The alkaid-mlp graph (../shared/conformance/alir/alkaid-mlp/graph.mlir)
// with the quantization of its quant.json written as types: the input is
// quantize(1,5,3) = i9 at 2^-3, the linears are exact (f64), each relu is
// relu(i=4,f=3) = u7 at 2^-3, and the last linear is quantize(1,8,3) = i12 at
// 2^-3. Parameters: params.npz of the same directory.
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
