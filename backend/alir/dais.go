package alir

// DecodeDAIS reads a DAIS v1 binary (da4ml 0.6: header version 1, with
// lookup tables).
func DecodeDAIS(data []byte) (*Program, error) { return decodeBinary(daisV1, data) }

// EncodeDAIS writes p as a DAIS v1 binary, converting an ALIR program first
// (see Convert).
func EncodeDAIS(p *Program) ([]byte, error) { return encodeBinary(daisV1, p) }

// DecodeDAISOriginal reads the original headerless DAIS binary of dais.md
// ([n_in, n_out, n_ops], the arrays, the op rows; no lookup tables). Its
// opcodes are -6, -3, -2, -1 and 0 to 7.
func DecodeDAISOriginal(data []byte) (*Program, error) { return decodeBinary(daisOriginal, data) }

// EncodeDAISOriginal writes p as an original headerless DAIS binary.
func EncodeDAISOriginal(p *Program) ([]byte, error) { return encodeBinary(daisOriginal, p) }
