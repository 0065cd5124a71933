package exec

import (
	"slices"
	"sync"
	"testing"
)

// TestSpareConcurrentRuns runs the tiled matmul (#workgroup tiles, DMA
// copies, reused result buffers) in several goroutines at once, so that runs
// take and give back working memory (spare.go) concurrently: every run's
// result must be the product. (The runs skip the verifier, which numbers the
// module's operations in place; it runs once first.)
func TestSpareConcurrentRuns(t *testing.T) {
	m := parseModule(t, matmulSrc(32, 16))
	a, b, c, want := matmulInputs(t, 32)
	if _, err := Run(m, "matmul", []*Buffer{a, b, c}, Options{}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 3 {
				res, err := Run(m, "matmul", []*Buffer{a, b, c}, Options{SkipVerify: true})
				if err != nil {
					errs <- err
					return
				}
				if got := res.Output("C").Ints; !slices.Equal(got, want) {
					t.Errorf("a concurrent run gave %v", got)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
