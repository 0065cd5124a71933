// A float graph for nn-quantize: linear, relu, softmax and layer_norm
// (decomposed before typing). Payload params.npz, calibration calib.npy
// (gen.py).
nn.graph @g(%x: tensor<4xf64>) -> (tensor<3xf64>, tensor<3xf64>) {
  %0 = nn.linear %x {params = "fc"} : (tensor<4xf64>) -> tensor<3xf64>
  %1 = nn.relu %0 : (tensor<3xf64>) -> tensor<3xf64>
  %2 = nn.softmax %1 {axis = 0} : (tensor<3xf64>) -> tensor<3xf64>
  %3 = nn.layer_norm %0 {axis = 0} : (tensor<3xf64>) -> tensor<3xf64>
  nn.return %2, %3 : tensor<3xf64>, tensor<3xf64>
}
