package ir

import (
	"fmt"
	"strconv"
	"strings"
)

// TensorType is MLIR's builtin ranked tensor type with static dimensions:
// tensor<2x3xf64>, tensor<f64> (rank 0). It is a value (no memory space):
// the nn dialect's graphs compute on tensors. Dimensions may be 0 (an empty
// tensor), as in MLIR; the element type is a scalar or a dialect's type.
type TensorType struct {
	Shape []int64
	Elem  Type
	str   string
}

func (*TensorType) isType()          {}
func (t *TensorType) String() string { return t.str }

// Rank is the number of dimensions.
func (t *TensorType) Rank() int { return len(t.Shape) }

// NumElements is the product of the dimensions (1 for rank 0).
func (t *TensorType) NumElements() int64 {
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Tensor returns the tensor type of the given shape and element type. The
// shape slice is copied.
func Tensor(shape []int64, elem Type) *TensorType {
	key := tensorText(shape, elem)
	return intern(key, func() Type {
		return &TensorType{Shape: append([]int64{}, shape...), Elem: elem, str: key}
	}).(*TensorType)
}

// tensorText spells tensor<2x3xf64>.
func tensorText(shape []int64, elem Type) string {
	var sb strings.Builder
	sb.WriteString("tensor<")
	for _, d := range shape {
		sb.WriteString(strconv.FormatInt(d, 10))
		sb.WriteByte('x')
	}
	sb.WriteString(TypeString(elem))
	sb.WriteByte('>')
	return sb.String()
}

// maxTensorDim bounds one dimension, maxTensorElems the product of the
// non-zero ones (implementation limits, as for tiles).
const (
	maxTensorDim   = 1 << 31
	maxTensorElems = 1 << 40
)

// parseTensor reads the body of tensor<...>: "2x3xf64", "f64".
func parseTensor(body string) (Type, error) {
	rest := strings.TrimSpace(body)
	var shape []int64
	total := int64(1)
	for {
		i := 0
		for i < len(rest) && rest[i] != 'x' && rest[i] != ',' && rest[i] != ' ' && rest[i] != '<' {
			i++
		}
		if i == len(rest) || rest[i] != 'x' {
			break
		}
		d := rest[:i]
		if !isDigits(d) {
			if d == "?" || d == "*" || strings.HasPrefix(d, "-") || d == "" {
				return nil, fmt.Errorf("invalid tensor dimension '%s' (dimensions are static non-negative integers)", d)
			}
			break
		}
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n > maxTensorDim {
			return nil, fmt.Errorf("tensor dimension '%s' out of range", d)
		}
		if n > 0 {
			if total *= n; total > maxTensorElems {
				return nil, fmt.Errorf("tensor has too many elements")
			}
		}
		shape = append(shape, n)
		rest = rest[i+1:]
	}
	elem, err := parseType(rest)
	if err != nil {
		return nil, err
	}
	if !IsScalar(elem) && !IsDialectType(elem) {
		return nil, fmt.Errorf("tensor element type must be an integer, float, index or dialect type, not '%s'", rest)
	}
	return Tensor(shape, elem), nil
}
