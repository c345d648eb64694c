# Export the UCI letter and satellite sets from R's mlbench to CSV for
# bench/lmacc (landmark vs exact accuracy).
#
# Tools: R 4.x, mlbench 2.1-3 (Debian r-cran-mlbench 2.1-3-1).
# Command (from the repository root):
#   Rscript bench/lmacc/export.R /tmp/lmacc
# Writes DIR/letter.csv (20,000 × 16, 26 classes; rows in mlbench's order:
# the standard protocol trains on the first 16,000 and tests on the last
# 4,000) and DIR/satellite.csv (6,435 × 36, 6 classes; mlbench's rows are
# UCI sat.trn (4,435) followed by sat.tst (2,000)). Header f1..fd,label;
# label = the 0-based index of the class in mlbench's factor levels
# (letter: A..Z; satellite: red soil, cotton crop, grey soil, damp grey soil,
# vegetation stubble, very damp grey soil). The data are not committed.
suppressMessages(library(mlbench))
args <- commandArgs(trailingOnly = TRUE)
dir <- if (length(args) > 0) args[1] else "/tmp/lmacc"
dir.create(dir, showWarnings = FALSE, recursive = TRUE)
out <- function(X, y, name) {
  X <- as.matrix(X)
  colnames(X) <- paste0("f", seq_len(ncol(X)))
  df <- data.frame(X, label = as.integer(y) - 1L)
  path <- file.path(dir, paste0(name, ".csv"))
  write.csv(df, path, row.names = FALSE, quote = FALSE)
  cat(sprintf("%s: %d rows, %d features, %d classes (mlbench %s)\n", path,
              nrow(X), ncol(X), nlevels(y), packageVersion("mlbench")))
}
data(LetterRecognition)
out(LetterRecognition[, -1], LetterRecognition$lettr, "letter")
data(Satellite)
out(Satellite[, 1:36], Satellite$classes, "satellite")
