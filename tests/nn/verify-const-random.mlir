// nn.const, nn.rand_uniform, nn.bernoulli_mask: the rules of their Verify
// hooks (dialect/nn/const.go, random.go).
// RUN: otir-opt %s --split-input-file --verify-diagnostics

nn.graph @params_missing() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op requires attribute 'params'}}
  %c = "nn.const"() : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @params_kind() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'params' must be a string attribute, but got an integer attribute}}
  %c = nn.const {params = 3} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @params_empty() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'params' must name a payload entry, but is empty}}
  %c = nn.const {params = ""} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @seed_missing() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.rand_uniform' op requires attribute 'seed'}}
  %r = nn.rand_uniform : () -> tensor<3xf64>
  nn.return %r : tensor<3xf64>
}

// -----

nn.graph @seed_negative() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.rand_uniform' op seed must be an integer in [0, 2^64), but got -1}}
  %r = nn.rand_uniform {seed = -1} : () -> tensor<3xf64>
  nn.return %r : tensor<3xf64>
}

// -----

nn.graph @seed_too_large(%p: tensor<f64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.bernoulli_mask' op seed must be an integer in [0, 2^64), but got 18446744073709551616}}
  %r = "nn.bernoulli_mask"(%p) {seed = 18446744073709551616 : i128} : (tensor<f64>) -> tensor<3xf64>
  nn.return %r : tensor<3xf64>
}

// -----

nn.graph @keep_prob_rank(%p: tensor<1xf64>) -> tensor<3xf64> {
  // expected-error @+1 {{'nn.bernoulli_mask' op keep_prob must have rank 0, but got 'tensor<1xf64>'}}
  %r = nn.bernoulli_mask %p {seed = 0} : (tensor<1xf64>) -> tensor<3xf64>
  nn.return %r : tensor<3xf64>
}

// -----

// Inline constants (docs/nn.md, "Inline constants"): exactly one of
// 'params' and 'value'; 'value' is a dense attribute of finite f64 numbers
// with the result's element count.

nn.graph @const_both() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op takes either attribute 'params' (a payload entry) or 'value' (inline values), not both}}
  %c = nn.const {params = "k", value = dense<1.0> : tensor<3xf64>} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @const_neither() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op requires attribute 'params' (a payload entry) or 'value' (inline values)}}
  %c = nn.const : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @value_scalar() -> tensor<f64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' must be a dense attribute of f64 numbers (dense<...> : tensor<...xf64>), but got a float attribute}}
  %c = nn.const {value = 1.0 : f64} : () -> tensor<f64>
  nn.return %c : tensor<f64>
}

// -----

nn.graph @value_ints() -> tensor<2xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' must hold f64 numbers, but its type is 'tensor<2xi32>'}}
  %c = nn.const {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xf64>
  nn.return %c : tensor<2xf64>
}

// -----

nn.graph @value_f32() -> tensor<2xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' must hold f64 numbers, but its type is 'tensor<2xf32>'}}
  %c = nn.const {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf64>
  nn.return %c : tensor<2xf64>
}

// -----

nn.graph @value_count() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' of type 'tensor<2xf64>' has 2 elements, but the result type 'tensor<3xf64>' holds 3}}
  %c = nn.const {value = dense<[1.0, 2.0]> : tensor<2xf64>} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @value_splat_count() -> tensor<3xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' of type 'tensor<2x2xf64>' has 4 elements, but the result type 'tensor<3xf64>' holds 3}}
  %c = nn.const {value = dense<1.0> : tensor<2x2xf64>} : () -> tensor<3xf64>
  nn.return %c : tensor<3xf64>
}

// -----

nn.graph @value_inf() -> tensor<2xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' holds +Inf at flat index 1: constants must be finite}}
  %c = nn.const {value = dense<[1.0, 0x7FF0000000000000]> : tensor<2xf64>} : () -> tensor<2xf64>
  nn.return %c : tensor<2xf64>
}

// -----

nn.graph @value_string() -> tensor<2xf64> {
  // expected-error @+1 {{'nn.const' op attribute 'value' must be a dense attribute of f64 numbers (dense<...> : tensor<...xf64>), but got a string attribute}}
  %c = nn.const {value = "1.0"} : () -> tensor<2xf64>
  nn.return %c : tensor<2xf64>
}
