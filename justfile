# Developer shortcuts. CI runs .ci/run; these are the same steps one at a time.

default: test

# Build every binary into ./bin
build:
    mkdir -p bin && go build -o bin/ ./cmd/...

# Every test: unit, golden (lit), conformance
test:
    go test ./...

# Benchmarks recorded in BENCHMARKS.md
bench:
    go test -run '^$' -bench . -benchmem ./...

# Fuzz every target for FUZZTIME (default 1m) each
fuzz FUZZTIME="1m":
    FUZZTIME={{FUZZTIME}} bash -c 'while read -r pkg t; do go test -run "^$" -fuzz "^$t\$" -fuzztime "$FUZZTIME" -fuzzminimizetime=0 "$pkg" || exit 1; done < <(bash .ci/fuzz-targets)'

# gofmt + vet
lint:
    test -z "$(gofmt -l $(git ls-files '*.go'))"
    go vet ./...

# Run the main job on the bundled example
example:
    go run ./cmd/otir-opt examples/vadd.otir --pass-pipeline='builtin.module(promote-types,cse)'
