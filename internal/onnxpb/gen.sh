#!/bin/sh
# Regenerates onnx.pb.go from ONNX's onnx.proto, kept unchanged in
# third_party/onnx (see README.md): protoc (Debian's protobuf-compiler,
# 3.21.12 here) and protoc-gen-go v1.36.12
# (go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12) on PATH.
# To move to a newer ONNX, copy its onnx.proto over third_party/onnx/onnx.proto
# first (Debian's python3-onnx installs it as
# /usr/lib/python3/dist-packages/onnx/onnx.proto).
set -e
cd "$(dirname "$0")"
protoc -I ../../third_party/onnx --go_out=. --go_opt=paths=source_relative \
	--go_opt=Monnx.proto=github.com/otir-dev/otir/internal/onnxpb onnx.proto
