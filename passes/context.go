package passes

import (
	"reflect"
	"sync"
)

// Context is what the pass manager gives the constructor of every pass of
// a run: values a driver provides once for all passes (otir-opt --params:
// the payload of nn graphs) and values the passes of one run share (a
// payload file read once), each keyed by its Go type, so that a package
// above this one (the nn lowerings) defines its own.
type Context struct {
	mu     sync.Mutex
	values map[reflect.Type]any
}

// NewContext is an empty context.
func NewContext() *Context { return &Context{values: map[reflect.Type]any{}} }

// Provide sets c's value of type T.
func Provide[T any](c *Context, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.values[reflect.TypeFor[T]()] = v
}

// Use is c's value of type T, made by make and kept on first use when no
// value of that type was provided.
func Use[T any](c *Context, make func() T) T {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := reflect.TypeFor[T]()
	if v, ok := c.values[key]; ok {
		return v.(T)
	}
	v := make()
	c.values[key] = v
	return v
}
