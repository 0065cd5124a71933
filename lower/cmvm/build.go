package cmvm

// graph builds the Graph of the nodes the outputs need, renumbered in
// creation order (which is topological).
func (e *engine) graph(refs []ref) *Graph {
	nIn := len(e.inputs)
	need := make([]bool, len(e.nodes))
	var mark func(id int32)
	mark = func(id int32) {
		for id >= int32(nIn) && !need[id] {
			need[id] = true
			mark(e.nodes[id].a)
			id = e.nodes[id].b
		}
	}
	for _, r := range refs {
		if r.node >= 0 {
			mark(r.node)
		}
	}
	g := &Graph{Inputs: append([]Interval(nil), e.inputs...), Model: e.model}
	newID := make([]int, len(e.nodes))
	for id := range nIn {
		newID[id] = id
	}
	for id := nIn; id < len(e.nodes); id++ {
		if !need[id] {
			continue
		}
		nd := &e.nodes[id]
		newID[id] = nIn + len(g.Ops)
		g.Ops = append(g.Ops, Op{A: newID[nd.a], B: newID[nd.b], Shift: int(nd.shift), Sub: nd.sub,
			Interval: nd.iv, Depth: nd.depth, Cost: nd.cost, Latency: nd.lat})
	}
	for _, r := range refs {
		o := Output{Node: -1}
		if r.node >= 0 {
			o = Output{Node: newID[r.node], Shift: int(r.shift), Neg: r.sign < 0}
		}
		g.Outputs = append(g.Outputs, o)
	}
	g.foldSigns()
	return g
}
