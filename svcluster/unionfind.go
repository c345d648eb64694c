package svcluster

// unionFind is a disjoint-set forest with path halving and union by index
// (the smaller root wins), so the final roots are deterministic.
type unionFind []int32

func newUnionFind(n int) unionFind {
	u := make(unionFind, n)
	for i := range u {
		u[i] = int32(i)
	}
	return u
}

func (u unionFind) find(i int) int {
	for int(u[i]) != i {
		u[i] = u[u[i]]
		i = int(u[i])
	}
	return i
}

func (u unionFind) union(a, b int) bool {
	ra, rb := u.find(a), u.find(b)
	if ra == rb {
		return false
	}
	if ra < rb {
		u[rb] = int32(ra)
	} else {
		u[ra] = int32(rb)
	}
	return true
}

// labels numbers the sets 0, 1, ... in order of their smallest member.
func (u unionFind) labels() ([]int, int) {
	n := len(u)
	lab := make([]int, n)
	id := make([]int, n)
	for i := range id {
		id[i] = -1
	}
	k := 0
	for i := 0; i < n; i++ {
		r := u.find(i)
		if id[r] < 0 {
			id[r] = k
			k++
		}
		lab[i] = id[r]
	}
	return lab, k
}
