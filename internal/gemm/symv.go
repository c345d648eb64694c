package gemm

// SymvPanel performs, for the four rows p = 0..3 of a panel of the upper
// triangle of a symmetric m×m matrix (row p starts at a[p·lda], column 0 of
// the panel), exactly the operations of
//
//	for p := 0; p < 4; p++ {
//		y[p] += floats.Dot(a_p[p:m], x[p:m])
//		floats.AddScaled(y[p+1:m], x[p], a_p[p+1:m])
//	}
//
// with gonum's kernels (DotUnitary: products rounded, summed in four lanes
// by index mod 4 from the row's first entry, the last len mod 4 products
// added to lane 0, then (l₀+l₂)+(l₁+l₃); AxpyUnitary: y_j + x_p·a_pj, the
// product rounded), so the result is the same to the bit, while the four
// rows right of the panel's diagonal block are read once, in one pass (the
// memory-bound half of a symmetric matrix–vector product: internal/eigen's
// tridiagonalisation and internal/lanczos). With AVX2 that pass is an
// assembly loop. It panics if m < 8 or a, x or y is too short.
func SymvPanel(m int, a []float64, lda int, x, y []float64) {
	if m < 8 {
		panic("gemm: SymvPanel needs m ≥ 8")
	}
	_, _, _ = a[3*lda+m-1], x[m-1], y[m-1]
	row := func(p int) []float64 { return a[p*lda : p*lda+m] }
	// The axpys inside the 4×4 diagonal block, in row order.
	for p := range 3 {
		if xp := x[p]; xp != 0 {
			ap := row(p)
			for c := p + 1; c < 4; c++ {
				y[c] += float64(xp * ap[c])
			}
		}
	}
	// acc[p][q] is lane (q−p) mod 4 of row p (columns ≡ q mod 4), started
	// with the diagonal block's products.
	var acc [4][4]float64
	for p := range 4 {
		ap := row(p)
		for q := p; q < 4; q++ {
			z := 0.0
			z += float64(ap[q] * x[q])
			acc[p][q] = z
		}
	}
	// Row p's lanes hold its relative indices below 4⌊(m−p)/4⌋, i.e. the
	// columns below e_p = p + 4⌊(m−p)/4⌋ ≥ m − 3; the shared vector pass
	// covers [4, 4+nk) with 4+nk ≤ min_p e_p.
	lo := m
	for p := range 4 {
		lo = min(lo, p+4*((m-p)/4))
	}
	nk := (lo - 4) &^ 3
	s := [4]float64{x[0], x[1], x[2], x[3]}
	if nk > 0 {
		if haveSymvPanel {
			symvRows4Asm(nk, &a[4], lda, &x[4], &y[4], &s, &acc)
		} else {
			symvRows4Go(nk, a[4:], lda, x[4:], y[4:], s, &acc)
		}
	}
	for j := 4 + nk; j < m; j++ {
		yj := y[j]
		for p := range 4 {
			if s[p] != 0 {
				yj += float64(s[p] * a[p*lda+j])
			}
		}
		y[j] = yj
	}
	for p := range 4 {
		ap := row(p)
		e := p + 4*((m-p)/4)
		for j := 4 + nk; j < e; j++ {
			acc[p][j&3] += float64(ap[j] * x[j])
		}
		l := func(lane int) float64 { return acc[p][(lane+p)&3] }
		l0 := l(0)
		for j := e; j < m; j++ {
			l0 += float64(ap[j] * x[j])
		}
		y[p] += (l0 + l(2)) + (l(1) + l(3))
	}
}

// Products are converted with float64(·) so that the compiler rounds them
// before the addition (it may otherwise fuse them into one FMA).

// symvRows4Go is the vector pass of SymvPanel in Go: n (a multiple of 4)
// columns from column 0 of a, x and y.
func symvRows4Go(n int, a []float64, lda int, x, y []float64, s [4]float64, acc *[4][4]float64) {
	for j0 := 0; j0 < n; j0 += 4 {
		for q := range 4 {
			j := j0 + q
			yj := y[j]
			for p := range 4 {
				apj := a[p*lda+j]
				acc[p][q] += float64(apj * x[j])
				yj += float64(s[p] * apj)
			}
			y[j] = yj
		}
	}
}
