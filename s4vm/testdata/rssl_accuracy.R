# Whole-run reference for package s4vm: RSSL 0.9.7's S4VM (installed as
# described in rssl_fixtures.R; R 4.2.2, Debian's r-cran-* packages) and
# its inductive SVM (RSSL's svmd: LIBSVM C-SVC, C = 100, linear), features
# min–max scaled to [0, 1], 10 labelled rows per class drawn per split
# (set.seed(split); sample() per class), accuracy on the unlabelled rows.
# More than two classes: one S4VM per pair of classes (the rows labelled
# with the two plus all unlabelled rows), max-wins voting, ties to the
# lower class — paper 003's baseline built on RSSL's binary S4VM.
#
# Run (from s4vm/testdata), one data set per call:
#   R_LIBS=$RSSL_LIB Rscript rssl_accuracy.R NAME SPLITS > rssl_accuracy_NAME.json
# NAME: iris, wine, two_moons (../../dataset/data/NAME.csv.gz), usps, or
# breast_cancer (breast_cancer.csv.gz, made by make_breast_cancer.py).
# Prints one JSON object: the splits (0-based labelled rows), per split
# the accuracies of S4VM and of the inductive SVM, and the seconds of each
# S4VM call (elapsed, R's proc.time).

suppressMessages(library(RSSL))
suppressMessages(library(jsonlite))

args <- commandArgs(trailingOnly = TRUE)
name <- args[1]
nsplits <- as.integer(args[2])
path <- if (name == "breast_cancer") "breast_cancer.csv.gz" else file.path("..", "..", "dataset", "data", paste0(name, ".csv.gz"))
d <- read.csv(gzfile(path))
X <- as.matrix(d[, names(d) != "label"])
y <- d$label
X <- apply(X, 2, function(v) { r <- max(v) - min(v); if (r == 0) v * 0 else (v - min(v)) / r })
cls <- sort(unique(y))

out <- list(name = name, splits = list(), s4vm = c(), svm = c(), seconds = c())
for (s in seq_len(nsplits) - 1) {
  set.seed(s)
  lab <- sort(unlist(lapply(cls, function(c) { w <- which(y == c); w[sample.int(length(w), 10)] })))
  unl <- setdiff(seq_along(y), lab)
  t0 <- proc.time()[["elapsed"]]
  votes <- matrix(0, length(unl), length(cls))
  for (a in seq_along(cls)) for (b in seq_along(cls)) if (a < b) {
    pl <- lab[y[lab] %in% cls[c(a, b)]]
    m <- S4VM(X[pl, , drop = FALSE], factor(y[pl], levels = cls[c(a, b)]), X[unl, , drop = FALSE],
              C1 = 100, C2 = 0.1, sample_time = 100, gamma = 0, lambda_tradeoff = 3)
    win_a <- m@predictions == as.character(cls[a])
    votes[win_a, a] <- votes[win_a, a] + 1
    votes[!win_a, b] <- votes[!win_a, b] + 1
  }
  secs <- proc.time()[["elapsed"]] - t0
  pred <- cls[apply(votes, 1, which.max)]
  sv <- RSSL:::svmd(X[lab, , drop = FALSE], factor(y[lab]), cost = 100, type = "C-classification", kernel = "linear", scale = FALSE)
  psvm <- as.integer(as.character(RSSL:::predict.svmd(sv, X[unl, , drop = FALSE])))
  out$splits[[length(out$splits) + 1]] <- lab - 1
  out$s4vm <- c(out$s4vm, mean(pred == y[unl]))
  out$svm <- c(out$svm, mean(psvm == y[unl]))
  out$seconds <- c(out$seconds, secs)
}
cat(toJSON(out, digits = NA, auto_unbox = TRUE), "\n")
