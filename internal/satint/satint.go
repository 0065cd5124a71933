// Package satint is non-negative int64 arithmetic that saturates at
// math.MaxInt64, for sizes and counts that a hostile input can make huge:
// a product that would wrap stays at the maximum and fails the limit check
// it feeds.
package satint

import "math"

// Mul returns a*b for a, b >= 0, or math.MaxInt64 if it overflows.
func Mul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

// Add returns a+b for a, b >= 0, or math.MaxInt64 if it overflows.
func Add(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
