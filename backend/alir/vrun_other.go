//go:build !amd64

package alir

import "unsafe"

const haveVector, haveVector512 = false, false

func vrun32(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }

func vrun64(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }

func vrun32z(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }

func vrun64z(buf unsafe.Pointer, code *vinstr, n int, nbytes int) { panic("alir: no vector runs") }
