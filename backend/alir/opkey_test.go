package alir

import (
	"math"
	"math/rand"
	"testing"
)

// TestOpKeySetAsMap checks OpKeySet against a Go map with OpKey keys on
// random keys with many repeats, zeros of both signs and NaNs (a NaN key is
// never found, as in a map).
func TestOpKeySetAsMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	floats := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.NaN()}
	var keys []OpKey
	var set OpKeySet
	byKey := map[OpKey]int32{}
	keyOf := func(id int32) OpKey { return keys[id] }
	for i := 0; i < 20000; i++ {
		k := OpKey{
			Opcode: Opcode(rng.Intn(3)), ID0: int32(rng.Intn(20)), ID1: int32(rng.Intn(20) - 1), Data: int64(rng.Intn(3)),
			QInt: QInterval{Min: floats[rng.Intn(len(floats))], Max: floats[rng.Intn(len(floats))], Step: 1},
		}
		want, ok := byKey[k]
		if !ok {
			want = -1
		}
		if got := set.Find(k, keyOf); got != want {
			t.Fatalf("key %d %+v: Find = %d, want %d", i, k, got, want)
		}
		if !ok {
			keys = append(keys, k)
			id := int32(len(keys) - 1)
			set.Insert(id, keyOf)
			byKey[k] = id
		}
	}
}
