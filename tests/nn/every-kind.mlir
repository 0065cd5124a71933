// A valid graph using every nn node kind (docs/nn.md; the node kinds of
// ../shared/spec/nn-graph-ops.md), with the batched forms of linear, conv2d
// and the pools: it verifies clean, and the pretty and generic forms print
// back as they were read.
// RUN: otir-opt %s | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | FileCheck %s --check-prefix=GENERIC
// RUN: otir-opt %s --print-op-generic | otir-opt | FileCheck %s
// RUN: otir-opt %s --print-op-generic | otir-opt --print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: nn.graph @every_kind(%arg0: tensor<1x8x8xf64>, %arg1: tensor<4xf64>, %arg2: tensor<f64>) -> (tensor<f64>, tensor<2x3xf64>) {
// CHECK-NEXT: %[[C:.*]] = nn.const {params = "c"} : () -> tensor<2x3xf64>
// CHECK-NEXT: %[[P:.*]] = nn.permute %[[C]] {perm = [1, 0]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[D:.*]] = nn.detach %[[P]] : (tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[R:.*]] = nn.rand_uniform {seed = 7} : () -> tensor<3x2xf64>
// CHECK-NEXT: %[[B:.*]] = nn.bernoulli_mask %arg2 {seed = 1} : (tensor<f64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[ADD:.*]] = nn.add %[[D]], %[[R]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[SUB:.*]] = nn.sub %[[ADD]], %[[B]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: %[[MUL:.*]] = nn.mul %[[SUB]], %[[SUB]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: nn.max %[[MUL]], %[[D]] : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-NEXT: nn.min
// CHECK-NEXT: nn.abs
// CHECK-NEXT: nn.sqrt
// CHECK-NEXT: nn.inv
// CHECK-NEXT: nn.relu
// CHECK-NEXT: nn.tanh
// CHECK-NEXT: nn.sigmoid
// CHECK-NEXT: nn.exp
// CHECK-NEXT: nn.log
// CHECK-NEXT: nn.sin
// CHECK-NEXT: nn.cos
// CHECK-NEXT: nn.max_pool2d %arg0 {kernel = [2, 2], padding = 1, stride = 2} : (tensor<1x8x8xf64>) -> tensor<1x5x5xf64>
// CHECK-NEXT: nn.avg_pool2d %arg0 {kernel = [3, 3], stride = 1} : (tensor<1x8x8xf64>) -> tensor<1x6x6xf64>
// CHECK-NEXT: nn.conv2d %arg0 {kernel = [3, 3], padding = 1, params = "conv", stride = 1} : (tensor<1x8x8xf64>) -> tensor<4x8x8xf64>
// CHECK-NEXT: nn.linear %arg1 {params = "fc"} : (tensor<4xf64>) -> tensor<3xf64>
// CHECK-NEXT: nn.matmul %{{.*}}, %{{.*}} : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: nn.broadcast_to %arg1 : (tensor<4xf64>) -> tensor<3x4xf64>
// CHECK-NEXT: nn.reduce_sum %{{.*}} {axis = 1} : (tensor<3x4xf64>) -> tensor<3xf64>
// CHECK-NEXT: nn.reduce_mean %{{.*}} {axis = 0} : (tensor<3x4xf64>) -> tensor<4xf64>
// CHECK-NEXT: nn.sum %{{.*}} : (tensor<3x3xf64>) -> tensor<f64>
// CHECK-NEXT: nn.softmax %{{.*}} {axis = 1} : (tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: nn.layer_norm %{{.*}} {axis = 1} : (tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: nn.layer_norm %{{.*}} {axis = 0, epsilon = 1.0e-06 : f64} : (tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK-NEXT: nn.reshape %{{.*}} : (tensor<4x8x8xf64>) -> tensor<16x16xf64>
// CHECK-NEXT: nn.flatten %{{.*}} : (tensor<16x16xf64>) -> tensor<256xf64>
// CHECK-NEXT: nn.concat %{{.*}}, %{{.*}}, %{{.*}} {axis = 0} : (tensor<3x2xf64>, tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<9x2xf64>
// CHECK-NEXT: nn.swap_first_two %{{.*}} : (tensor<4x8x8xf64>) -> tensor<8x4x8xf64>
// CHECK-NEXT: nn.transpose3d_last_two %{{.*}} : (tensor<8x4x8xf64>) -> tensor<8x8x4xf64>
// CHECK-NEXT: %[[LOSS:.*]] = nn.mse_loss %{{.*}}, %{{.*}} : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<f64>
// CHECK-NEXT: nn.return %[[LOSS]], %[[C]] : tensor<f64>, tensor<2x3xf64>
// CHECK-NEXT: }

// GENERIC: "nn.graph"() ({
// GENERIC-NEXT: ^bb0(%arg0: tensor<1x8x8xf64>, %arg1: tensor<4xf64>, %arg2: tensor<f64>):
// GENERIC-NEXT: "nn.const"() {params = "c"} : () -> tensor<2x3xf64>
// GENERIC: "nn.permute"(%{{.*}}) {perm = [1, 0]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
// GENERIC: "nn.max_pool2d"(%arg0) {kernel = [2, 2], padding = 1, stride = 2} : (tensor<1x8x8xf64>) -> tensor<1x5x5xf64>
// GENERIC: "nn.layer_norm"(%{{.*}}) {axis = 0, epsilon = 1.0e-06 : f64} : (tensor<3x3xf64>) -> tensor<3x3xf64>
// GENERIC: "nn.concat"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 0} : (tensor<3x2xf64>, tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<9x2xf64>
// GENERIC: "nn.return"(%{{.*}}, %{{.*}}) : (tensor<f64>, tensor<2x3xf64>) -> ()
// GENERIC-NEXT: }) {function_type = (tensor<1x8x8xf64>, tensor<4xf64>, tensor<f64>) -> (tensor<f64>, tensor<2x3xf64>), sym_name = "every_kind"} : () -> ()
nn.graph @every_kind(%img: tensor<1x8x8xf64>, %v: tensor<4xf64>, %p: tensor<f64>) -> (tensor<f64>, tensor<2x3xf64>) {
  %c = nn.const {params = "c"} : () -> tensor<2x3xf64>
  %t = nn.permute %c {perm = [1, 0]} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  %d = nn.detach %t : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %r = nn.rand_uniform {seed = 7} : () -> tensor<3x2xf64>
  %b = nn.bernoulli_mask %p {seed = 1} : (tensor<f64>) -> tensor<3x2xf64>
  %e0 = nn.add %d, %r : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %e1 = nn.sub %e0, %b : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %e2 = nn.mul %e1, %e1 : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %e3 = nn.max %e2, %d : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %e4 = nn.min %e3, %d : (tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
  %u0 = nn.abs %e4 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u1 = nn.sqrt %u0 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u2 = nn.inv %u1 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u3 = nn.relu %u2 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u4 = nn.tanh %u3 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u5 = nn.sigmoid %u4 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u6 = nn.exp %u5 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u7 = nn.log %u6 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u8 = nn.sin %u7 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %u9 = nn.cos %u8 : (tensor<3x2xf64>) -> tensor<3x2xf64>
  %mp = nn.max_pool2d %img {kernel = [2, 2], stride = 2, padding = 1} : (tensor<1x8x8xf64>) -> tensor<1x5x5xf64>
  %ap = nn.avg_pool2d %img {kernel = [3, 3], stride = 1} : (tensor<1x8x8xf64>) -> tensor<1x6x6xf64>
  %cv = nn.conv2d %img {params = "conv", kernel = [3, 3], stride = 1, padding = 1} : (tensor<1x8x8xf64>) -> tensor<4x8x8xf64>
  %fc = nn.linear %v {params = "fc"} : (tensor<4xf64>) -> tensor<3xf64>
  %mm = nn.matmul %u9, %c : (tensor<3x2xf64>, tensor<2x3xf64>) -> tensor<3x3xf64>
  %bc = nn.broadcast_to %v : (tensor<4xf64>) -> tensor<3x4xf64>
  %rs = nn.reduce_sum %bc {axis = 1} : (tensor<3x4xf64>) -> tensor<3xf64>
  %rm = nn.reduce_mean %bc {axis = 0} : (tensor<3x4xf64>) -> tensor<4xf64>
  %s = nn.sum %mm : (tensor<3x3xf64>) -> tensor<f64>
  %sm = nn.softmax %mm {axis = 1} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %ln = nn.layer_norm %sm {axis = 1} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %ln2 = nn.layer_norm %ln {axis = 0, epsilon = 1.0e-06} : (tensor<3x3xf64>) -> tensor<3x3xf64>
  %rh = nn.reshape %cv : (tensor<4x8x8xf64>) -> tensor<16x16xf64>
  %fl = nn.flatten %rh : (tensor<16x16xf64>) -> tensor<256xf64>
  %cc = nn.concat %t, %d, %u9 {axis = 0} : (tensor<3x2xf64>, tensor<3x2xf64>, tensor<3x2xf64>) -> tensor<9x2xf64>
  %sw = nn.swap_first_two %cv : (tensor<4x8x8xf64>) -> tensor<8x4x8xf64>
  %tr = nn.transpose3d_last_two %sw : (tensor<8x4x8xf64>) -> tensor<8x8x4xf64>
  %loss = nn.mse_loss %ln2, %mm : (tensor<3x3xf64>, tensor<3x3xf64>) -> tensor<f64>
  nn.return %loss, %c : tensor<f64>, tensor<2x3xf64>
}

// The batched forms (docs/nn.md): linear over leading dimensions, conv2d and
// the pools over [N, C, H, W]; nn.matmul's own batched form.
// CHECK-LABEL: nn.graph @batched(%arg0: tensor<5x2x4xf64>, %arg1: tensor<5x3x8x8xf64>) -> tensor<5x2x6xf64> {
// CHECK-NEXT: nn.linear %arg0 {params = "fc"} : (tensor<5x2x4xf64>) -> tensor<5x2x6xf64>
// CHECK-NEXT: nn.conv2d %arg1 {kernel = [3, 3], padding = 1, params = "conv", stride = 2} : (tensor<5x3x8x8xf64>) -> tensor<5x16x4x4xf64>
// CHECK-NEXT: nn.max_pool2d %{{.*}} {kernel = [2, 2], stride = 2} : (tensor<5x16x4x4xf64>) -> tensor<5x16x2x2xf64>
// CHECK-NEXT: nn.avg_pool2d %{{.*}} {kernel = [2, 2], stride = 1} : (tensor<5x16x2x2xf64>) -> tensor<5x16x1x1xf64>
// CHECK-NEXT: nn.transpose3d_last_two %arg0 : (tensor<5x2x4xf64>) -> tensor<5x4x2xf64>
// CHECK-NEXT: nn.matmul %{{.*}}, %{{.*}} : (tensor<5x2x4xf64>, tensor<5x4x2xf64>) -> tensor<5x2x2xf64>
// CHECK: nn.return
nn.graph @batched(%x: tensor<5x2x4xf64>, %img: tensor<5x3x8x8xf64>) -> tensor<5x2x6xf64> {
  %y = nn.linear %x {params = "fc"} : (tensor<5x2x4xf64>) -> tensor<5x2x6xf64>
  %c = nn.conv2d %img {params = "conv", kernel = [3, 3], stride = 2, padding = 1} : (tensor<5x3x8x8xf64>) -> tensor<5x16x4x4xf64>
  %m = nn.max_pool2d %c {kernel = [2, 2], stride = 2} : (tensor<5x16x4x4xf64>) -> tensor<5x16x2x2xf64>
  %a = nn.avg_pool2d %m {kernel = [2, 2], stride = 1} : (tensor<5x16x2x2xf64>) -> tensor<5x16x1x1xf64>
  %t = nn.transpose3d_last_two %x : (tensor<5x2x4xf64>) -> tensor<5x4x2xf64>
  %mm = nn.matmul %x, %t : (tensor<5x2x4xf64>, tensor<5x4x2xf64>) -> tensor<5x2x2xf64>
  nn.return %y : tensor<5x2x6xf64>
}
