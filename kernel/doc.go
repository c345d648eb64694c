// Package kernel provides kernels and kernel matrices: the point kernels
// (linear, polynomial, Gaussian RBF, Laplacian, exponential), parallel Gram
// and cross matrices, the matrix operations of kernel methods (kernel-induced
// distance, double centring, projection onto the PSD cone, embedding,
// pseudo-inverse) and the data-dependent kernels of
//
//	Z. Bodó, Hierarchical cluster kernels for supervised and
//	semi-supervised learning, ICCP 2008 ("paper 000"):
//
// the hierarchical cluster kernel (HCK, §3.4) on Euclidean or graph
// distances, the ISOMAP kernel (§3.3), the connectivity kernel (§4), and
// their out-of-sample extension (§3.5, Extend).
//
// # Data flow
//
//	X ─► distance.Euclidean ─► hclust.Linkage ─► Tree.Ultrametric M ─► Center: K = -½·J·M·J      (HCK)
//	X ─► graph.Geodesic G ─┬─► hclust.Linkage ─► Tree.Ultrametric M ─► Center                    (HCK, graph)
//	                       └─► CenterSquared: -½·J·(G∘G)·J ─► ClipPSD                              (ISOMAP)
//	X ─► Gram(k, X)                                                                               (point kernels)
//
// J = I - 11ᵀ/N is never formed: Center is two O(N²) passes. M is used
// itself, not squared (paper 000 step 3; peers.py). By Theorem 4 the cluster
// kernel of a monotone tree is positive semi-definite; the ISOMAP matrix
// need not be, so its negative eigenvalues are clipped.
//
// Every learner in Arbor also fits from a Gram matrix, so any kernel here,
// or one a user computed (ToSym), enters at the same place.
//
// # Kernel specifications
//
// ParseSpec and ParseSpecs (the CLI's --kernel) read this grammar; names
// are case-insensitive, ':' separates fields (',' is accepted inside poly):
//
//	linear                         x·y
//	poly:A:B:DEGREE                (A·x·y + B)^DEGREE, A > 0, B ≥ 0, DEGREE ≥ 1
//	rbf:GAMMA | rbf:gamma=G        exp(-GAMMA·‖x-y‖²)
//	rbf:sigma=S                    GAMMA = 1/(2S²)
//	rbf | rbf:scale                GAMMA = 1/(d·Var X), sklearn's gamma="scale"
//	laplacian:GAMMA                exp(-GAMMA·‖x-y‖₁)   (sklearn laplacian_kernel)
//	exponential:GAMMA              exp(-GAMMA·‖x-y‖₂)   (paper 001's "Laplacian")
//	hck:METHOD                     cluster kernel, Euclidean distances
//	hckg:METHOD[:GRAPH]            cluster kernel, geodesic distances (GRAPH default knn:7)
//	isomap[:GRAPH]                 ISOMAP kernel (GRAPH default knn:7)
//	connectivity                   = hck:single
//	multitype:TRANSFER:PARAM:GAMMA multi-type cluster kernel (MultiType; TRANSFER
//	                               step|linstep|poly|randomwalk, see multitype_spec.go)
//
// Each name is a registered Family (families.go): its registration gives
// the grammar (Parse, Format), the command line's bare-name form and flags
// (Flags, Expand), the build step of BuildAll (Build, with the shared
// distances and geodesics of Shared), the out-of-sample rows of new points
// (Built.Extend) and the reference pipeline's name (PeerName). A new
// kernel, point or data-dependent, is one Register call in its own file.
//
// METHOD is single, complete, average, weighted or ward (hclust.ParseMethod;
// centroid and median have inversions and are rejected); GRAPH is knn:K or
// eps:E (graph.ParseSpec). A list such as
// "linear,hck:average,hckg:average,isomap" is built by BuildAll, which
// computes the Euclidean distances once and the geodesic matrix once per
// graph for all kernels that need them.
//
// # Complexity
//
// Gram, Cross, InducedDistance, Center: O(N²) entries (O(N²d) for Gram),
// parallel over GOMAXPROCS goroutines, split by rows, each entry computed
// by fixed scalar code, so results are bit-identical for any GOMAXPROCS.
// ClipPSD, Embed, PseudoInverse, ISOMAP and Extend with Via: O(N³)
// (internal/eigen: blocked tridiagonalisation and divide and conquer,
// parallel, deterministic). HCK: O(N²d + N²) plus the graph's shortest
// paths.
//
// # Float32 storage
//
// Sym32 is an N×N symmetric matrix in float32 (4N² bytes, half of a
// SymDense), built for a point kernel by Gram32; entries are the float64
// values rounded (relative error ≤ 2⁻²⁴). It implements mat.Symmetric, so
// any learner takes it; the SVM reads its rows in place. Point kernels
// with a Column32 method (RBF, Laplacian, Exponential) fill float32
// columns with a division-free exp (expfast.go, within 0.51 ulp) whose
// float32 rounding equals that of Eval. Build32 gives the float32 matrix
// of a point kernel (Gram32) or of a cluster kernel (hck, hckg,
// connectivity): the tree from hclust's float32 working matrix
// (FromPoints32, LinkageSym32), then K_ij = −½·((M_ij − (r_i + r_j)) + g)
// written row by row from the tree's ultrametric rows (r the row means, g
// the grand mean, in float64), so no float64 N×N matrix is ever held:
// peak 4N² bytes (hckg: 12N², its float64 geodesics). ISOMAP and
// multitype need a float64 eigendecomposition and return ErrFloat32.
//
// # Errors
//
// Bad input returns an error wrapping a sentinel: ErrBadParam (gamma ≤ 0,
// degree < 1, unsupported linkage, dims out of range), ErrShape (feature
// counts or destination sizes differ), ErrEmpty, ErrNonFinite (NaN/±Inf,
// with the position), ErrNotSymmetric, ErrEigen and ErrUnknownKernel, plus
// the sentinels of hclust and graph passed through, and ctx.Err() for
// cancelled contexts. Matrix-returning functions take a destination first;
// nil allocates. Center, CenterSquared and InducedDistance return no error
// (their input is a matrix the caller built); a destination of the wrong
// size panics there, as in gonum.
package kernel
