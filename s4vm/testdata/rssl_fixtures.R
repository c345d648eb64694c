# Fixtures for package s4vm from the reference S4VM: RSSL 0.9.7 (R port of
# Li & Zhou's MATLAB code), run through R 4.2.2 with Debian's r-cran-*
# packages (cluster 2.1.4, quadprog 1.5.8, Rcpp, RcppArmadillo, kernlab,
# dplyr, tidyr, ggplot2, reshape2, scales, MASS, Matrix).
#
# RSSL is not in Debian. It was installed unchanged from its GitHub source
# (github.com/jkrijthe/RSSL, commit 6a137a8, DESCRIPTION version 0.9.7),
# with its bundled modified LIBSVM (per-row upper bounds), into a private
# library:
#   git -C RSSL-checkout archive --prefix=RSSL/ HEAD | tar x
#   R CMD INSTALL --library=$RSSL_LIB RSSL
# Every dependency came from Debian; nothing was patched.
#
# Run (from s4vm/testdata):
#   R_LIBS=$RSSL_LIB Rscript rssl_fixtures.R
# It writes rssl_descent.json.gz (fixtures a and b) and nothing else.
#
# To compare number by number, the script records RSSL's random draws
# without changing what S4VM computes: it wraps RSSL's internal
# localDescent and generate_change_vector (assignInNamespace) so that each
# call's starting assignment, the change vectors it drew, and its result
# are saved, then calls the original function unchanged. The k-medoids
# partition is recomputed with the same cluster::pam call on the recorded
# candidates.

suppressMessages(library(RSSL))
suppressMessages(library(jsonlite))

read_set <- function(name) {
  d <- read.csv(gzfile(file.path("..", "..", "dataset", "data", paste0(name, ".csv.gz"))))
  list(X = as.matrix(d[, names(d) != "label"]), y = d$label)
}
minmax <- function(X) {
  apply(X, 2, function(v) { r <- max(v) - min(v); if (r == 0) v * 0 else (v - min(v)) / r })
}

ns <- asNamespace("RSSL")
orig_ld <- get("localDescent", ns)
orig_gcv <- get("generate_change_vector", ns)
rec <- new.env()
rec$calls <- list()
wrap_gcv <- function(unlabelNum, labelNum) {
  v <- orig_gcv(unlabelNum, labelNum)
  k <- length(rec$calls)
  rec$calls[[k]]$keep <- c(rec$calls[[k]]$keep, list(which(v[(labelNum + 1):(labelNum + unlabelNum)] == 0) - 1))
  v
}
wrap_ld <- function(instance, label, labelNum, unlabelNum, gamma, C, beta, alpha) {
  rec$calls[[length(rec$calls) + 1]] <- list(start = as.integer(label), keep = list())
  res <- orig_ld(instance, label, labelNum, unlabelNum, gamma, C, beta, alpha)
  k <- length(rec$calls)
  rec$calls[[k]]$labels <- as.integer(res$predictLabel)
  rec$calls[[k]]$obj <- res$model$obj
  res
}
assignInNamespace("generate_change_vector", wrap_gcv, "RSSL")
assignInNamespace("localDescent", wrap_ld, "RSSL")

# One recorded binary S4VM: rows = labelled (in data order) then unlabelled.
record <- function(name, X, y, lab, unl, seed, sample_time) {
  cls <- sort(unique(y[lab]))
  rec$calls <- list()
  set.seed(seed)
  m <- S4VM(X[lab, , drop = FALSE], factor(y[lab], levels = cls), X[unl, , drop = FALSE],
            C1 = 100, C2 = 0.1, sample_time = sample_time, gamma = 0, lambda_tradeoff = 3)
  pred <- ifelse(m@predictions == as.character(cls[1]), 1L, -1L)
  calls <- rec$calls
  nc <- length(calls)
  Y <- t(sapply(calls, function(c) c$labels))
  S <- sapply(calls, function(c) c$obj)
  # S4VM.R stores the ysvm candidate last; it runs first (when it exists).
  if (nc == sample_time + 1) {
    Y <- rbind(Y[-1, , drop = FALSE], Y[1, , drop = FALSE])
    S <- c(S[-1], S[1])
  }
  k <- min(nrow(unique(Y)), floor(sample_time / 10))
  idx <- if (k == 1) rep(1L, nrow(Y)) else cluster::pam(Y, k, metric = "manhattan", keep.diss = TRUE)$clustering
  list(name = name, seed = seed, sample_time = sample_time,
       # the points as 17-digit strings (toJSON keeps 15 digits)
       x = unname(matrix(sprintf("%.17g", X[c(lab, unl), , drop = FALSE]), nrow = length(c(lab, unl)))),
       lab = ifelse(y[lab] == cls[1], 1L, -1L), l = length(lab),
       calls = calls, ysvm_first = (nc == sample_time + 1),
       groups = k, idx = as.integer(idx),
       labelings = unname(m@labelings), predictions = pred)
}

out <- list()
# two_moons, 5 labelled per class, 60 rows (first 60 of the file)
d <- read_set("two_moons")
X <- minmax(d$X)[1:60, ]
y <- d$y[1:60]
lab <- c(which(y == 0)[1:5], which(y == 1)[1:5])
lab <- sort(lab)
unl <- setdiff(seq_along(y), lab)
out[[length(out) + 1]] <- record("two_moons60", X, y, lab, unl, 1, 20)
# iris classes 1 vs 2 (the overlapping pair), 4 labelled per class
d <- read_set("iris")
X <- minmax(d$X)
keep <- which(d$y != 0)
set.seed(11)
lab <- sort(c(sample(which(d$y == 1), 4), sample(which(d$y == 2), 4)))
unl <- setdiff(keep, lab)
out[[length(out) + 1]] <- record("iris12", X, d$y, lab, unl, 2, 30)
# wine classes 0 vs 1, 3 labelled per class, default sample_time
d <- read_set("wine")
X <- minmax(d$X)
keep <- which(d$y != 2)
set.seed(12)
lab <- sort(c(sample(which(d$y == 0), 3), sample(which(d$y == 1), 3)))
unl <- setdiff(keep, lab)
out[[length(out) + 1]] <- record("wine01", X, d$y, lab, unl, 3, 100)

# breast_cancer (make_breast_cancer.py), first 120 rows, 4 labelled per class
d <- read.csv(gzfile("breast_cancer.csv.gz"))
X <- minmax(as.matrix(d[, names(d) != "label"]))[1:120, ]
y <- d$label[1:120]
set.seed(13)
lab <- sort(c(sample(which(y == 0), 4), sample(which(y == 1), 4)))
unl <- setdiff(seq_along(y), lab)
out[[length(out) + 1]] <- record("breast_cancer120", X, y, lab, unl, 4, 60)
con <- gzfile("rssl_descent.json.gz", "w")
writeLines(toJSON(out, digits = NA, auto_unbox = TRUE), con)
close(con)
