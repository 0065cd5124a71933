package nnqonnx

// SoftmaxBound is softmaxBound, for the external tests.
var SoftmaxBound = softmaxBound
