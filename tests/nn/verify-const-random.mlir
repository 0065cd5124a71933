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
