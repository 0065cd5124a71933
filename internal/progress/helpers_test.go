package progress

import (
	"runtime"
	"strings"
	"sync"
)

const isLinux = runtime.GOOS == "linux"

// safeBuilder is a strings.Builder safe for concurrent use.
type safeBuilder struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *safeBuilder) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *safeBuilder) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}
