// A graph whose output divides by 3 after its input quantizer: not a
// fixed-point number, so nn-to-circuit{tail=FILE} ends the circuit at the
// quantizer's exact output and writes the division and the add to FILE
// (tests/nn/qonnx-to-circuit.lit).
module {
  nn.graph @division(%x: tensor<1x8xf64>) -> tensor<1x8xf64> {
    %q = nn.quant %x {params = "qin", bits = 16} : (tensor<1x8xf64>) -> tensor<1x8xf64>
    %d = nn.const {value = dense<3.0> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
    %inv = nn.inv %d : (tensor<1x8xf64>) -> tensor<1x8xf64>
    %m = nn.mul %q, %inv : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
    %h = nn.const {value = dense<0.5> : tensor<1x8xf64>} : () -> tensor<1x8xf64>
    %y = nn.add %m, %h : (tensor<1x8xf64>, tensor<1x8xf64>) -> tensor<1x8xf64>
    nn.return %y : tensor<1x8xf64>
  }
}
