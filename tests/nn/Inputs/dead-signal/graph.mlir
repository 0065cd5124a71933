// A quantized graph whose relu is dead on lane 1 (params.npz, gen.py):
// output 1 of the circuit is a constant, and input 2 is unused.
nn.graph @dead(%x: tensor<3x!quant.uniform<u8:f64, 0.125>>) -> tensor<2x!quant.uniform<i12:f64, 0.125>> {
  %0 = nn.linear %x {params = "fc1"} : (tensor<3x!quant.uniform<u8:f64, 0.125>>) -> tensor<2xf64>
  %1 = nn.relu %0 : (tensor<2xf64>) -> tensor<2x!quant.uniform<u7:f64, 0.125>>
  %2 = nn.linear %1 {params = "fc2"} : (tensor<2x!quant.uniform<u7:f64, 0.125>>) -> tensor<2x!quant.uniform<i12:f64, 0.125>>
  nn.return %2 : tensor<2x!quant.uniform<i12:f64, 0.125>>
}
