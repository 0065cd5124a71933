//go:build !amd64

package alir

import "unsafe"

const haveVector = false

func vrun32(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }

func vrun64(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }
