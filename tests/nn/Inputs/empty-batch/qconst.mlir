// A quantized graph without inputs: quant-error evaluates it once.
nn.graph @g() -> tensor<2x3x!quant.uniform<i8:f64, 0.125>> {
  %0 = nn.const {value = dense<[[1.0, -2.0, 0.5], [0.25, 3.0, -1.0]]> : tensor<2x3xf64>} : () -> tensor<2x3x!quant.uniform<i8:f64, 0.125>>
  nn.return %0 : tensor<2x3x!quant.uniform<i8:f64, 0.125>>
}
