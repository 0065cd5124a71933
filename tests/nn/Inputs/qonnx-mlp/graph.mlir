module {
  nn.graph @mlp(%arg0: tensor<1x8xf64>) -> tensor<1x4xf64> {
    %0 = nn.quant %arg0 {params = "qin", bits = 16, signed = true, narrow = false, rounding = "ROUND"} : (tensor<1x8xf64>) -> tensor<1x8xf64>
    %1 = nn.const {params = "w1"} : () -> tensor<12x8xf64>
    %2 = nn.quant %1 {params = "qw1", bits = 6, signed = true, narrow = true, rounding = "ROUND"} : (tensor<12x8xf64>) -> tensor<12x8xf64>
    %3 = nn.permute %2 {perm = [1, 0]} : (tensor<12x8xf64>) -> tensor<8x12xf64>
    %4 = nn.matmul %0, %3 : (tensor<1x8xf64>, tensor<8x12xf64>) -> tensor<1x12xf64>
    %5 = nn.const {params = "b1"} : () -> tensor<12xf64>
    %6 = nn.quant %5 {params = "qb1", bits = 12, signed = true, narrow = false, rounding = "ROUND"} : (tensor<12xf64>) -> tensor<12xf64>
    %7 = nn.broadcast_to %6 : (tensor<12xf64>) -> tensor<1x12xf64>
    %8 = nn.add %4, %7 : (tensor<1x12xf64>, tensor<1x12xf64>) -> tensor<1x12xf64>
    %9 = nn.relu %8 : (tensor<1x12xf64>) -> tensor<1x12xf64>
    %10 = nn.quant %9 {params = "qa", bits = 6, signed = false, narrow = false, rounding = "ROUND"} : (tensor<1x12xf64>) -> tensor<1x12xf64>
    %11 = nn.const {params = "w2"} : () -> tensor<4x12xf64>
    %12 = nn.quant %11 {params = "qw2", bits = 4, signed = true, narrow = true, rounding = "ROUND"} : (tensor<4x12xf64>) -> tensor<4x12xf64>
    %13 = nn.permute %12 {perm = [1, 0]} : (tensor<4x12xf64>) -> tensor<12x4xf64>
    %14 = nn.matmul %10, %13 : (tensor<1x12xf64>, tensor<12x4xf64>) -> tensor<1x4xf64>
    %15 = nn.const {params = "bn.mean"} : () -> tensor<4xf64>
    %16 = nn.broadcast_to %15 : (tensor<4xf64>) -> tensor<1x4xf64>
    %17 = nn.sub %14, %16 : (tensor<1x4xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
    %18 = nn.const {params = "bn.a"} : () -> tensor<4xf64>
    %19 = nn.broadcast_to %18 : (tensor<4xf64>) -> tensor<1x4xf64>
    %20 = nn.mul %17, %19 : (tensor<1x4xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
    %21 = nn.const {params = "bn.beta"} : () -> tensor<4xf64>
    %22 = nn.broadcast_to %21 : (tensor<4xf64>) -> tensor<1x4xf64>
    %23 = nn.add %20, %22 : (tensor<1x4xf64>, tensor<1x4xf64>) -> tensor<1x4xf64>
    %24 = nn.softmax %23 {axis = 1} : (tensor<1x4xf64>) -> tensor<1x4xf64>
    nn.return %24 : tensor<1x4xf64>
  }
}
