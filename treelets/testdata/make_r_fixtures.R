# Fixtures for the Signed rule: R's treelet package (Run_JTree) on covariance
# matrices, several with mixed-sign correlations.
#
# Tools: R 4.2.2 (Debian r-base-core), treelet 1.1 (CRAN 2015-02-11; source
# from github.com/cran/treelet, commit 00c8e56 "version 1.1").
# Install and run (from the repository root):
#   git clone https://github.com/cran/treelet /tmp/treelet-src
#   R CMD INSTALL -l /tmp/rlib-treelet /tmp/treelet-src
#   Rscript treelets/testdata/make_r_fixtures.R /tmp/rlib-treelet treelets/testdata/r
#
# For each case NAME it writes, all numbers with 17 significant digits:
#   NAME_A.csv      the input matrix (n×n)
#   NAME_levels.csv one row per level: level, i, j (Zpos, 1-based, i < j),
#                   sum (the index PCidx puts first: the sum variable, stays
#                   active), diff, cs, sn (T[[lev]] = [[cs, -sn], [sn, cs]],
#                   rows (i, j) become t(T) %*% rows), sim (the signed
#                   correlation of (i, j) in R's matrix before the level,
#                   C[i,j]/sqrt(C[i,i] C[j,j]) of TreeCovs[[lev-1]])
#   NAME_basis.csv  basis[[n-1]] (columns are the basis vectors)
#   NAME_mid.csv    basis[[floor(n/2)]]
#   NAME_cov.csv    TreeCovs[[n-1]], the rotated matrix after the last level
args <- commandArgs(trailingOnly = TRUE)
.libPaths(c(args[1], .libPaths()))
library(treelet)
out <- args[2]
dir.create(out, showWarnings = FALSE, recursive = TRUE)

f17 <- function(x) sprintf("%.17g", x)
wmat <- function(M, file) {
  lines <- apply(M, 1, function(r) paste(f17(r), collapse = ","))
  writeLines(lines, file)
}

run <- function(name, C) {
  n <- nrow(C)
  res <- suppressMessages(Run_JTree(C, n - 1, 1:(n - 1)))
  wmat(C, file.path(out, paste0(name, "_A.csv")))
  rows <- character(n - 1)
  for (lev in 1:(n - 1)) {
    ij <- res$Zpos[lev, ]
    pind <- ij[res$PCidx[lev, ]]
    Tm <- res$T[[lev]]
    Cprev <- if (lev == 1) C else res$TreeCovs[[lev - 1]]
    sim <- Cprev[ij[1], ij[2]] / sqrt(Cprev[ij[1], ij[1]] * Cprev[ij[2], ij[2]])
    rows[lev] <- paste(lev, ij[1], ij[2], pind[1], pind[2], f17(Tm[1, 1]), f17(Tm[2, 1]), f17(sim), sep = ",")
  }
  writeLines(c("level,i,j,sum,diff,cs,sn,sim", rows), file.path(out, paste0(name, "_levels.csv")))
  wmat(res$basis[[n - 1]], file.path(out, paste0(name, "_basis.csv")))
  wmat(res$basis[[floor(n / 2)]], file.path(out, paste0(name, "_mid.csv")))
  wmat(res$TreeCovs[[n - 1]], file.path(out, paste0(name, "_cov.csv")))
}

# mixed-sign loadings on three factors plus noise
set.seed(1)
mixed <- function(d, m) {
  L <- matrix(rnorm(3 * d), 3, d)
  Z <- matrix(rnorm(m * 3), m, 3)
  X <- Z %*% L + matrix(rnorm(m * d, sd = 0.6), m, d)
  cov(X)
}
run("mixed10", mixed(10, 60))
run("mixed25", mixed(25, 80))
# two blocks that are negatively correlated with each other
z <- rnorm(200)
X <- sapply(1:12, function(j) (if (j <= 6) 1 else -1) * z * (0.5 + j / 12) + rnorm(200, sd = 0.8))
run("antiblocks12", cov(X))
# the package's own example matrix (50×50 additive genetic relationships)
data(Ahat)
run("ahat", Ahat)
# an RBF kernel matrix (constant diagonal: equal diagonals at the first levels)
P <- cbind(c(rnorm(10), rnorm(10, 3)), rnorm(20))
D2 <- as.matrix(dist(P))^2
run("rbf20", exp(-0.5 * D2))
