// Package figure draws the pictures of the Arbor papers on gonum.org/v1/plot:
// dendrograms (paper 000 Fig. 1, SciPy's U-shaped links), 2-D scatter plots
// and kernel embeddings coloured by class (unlabelled points grey, labelled
// points larger), decision regions of any classifier over a grid, level-set
// contours such as the cluster boundaries R(x) = R of support vector
// clustering (paper 001 Fig. 1–4, several q side by side) and line plots
// (e.g. number of clusters against q).
//
// Pictures are made to go in a report: axes are labelled, ticks fall on
// round values (NiceTicks), a legend is drawn beside its panel so that it
// hides no point, titles wrap to the panel's width instead of being
// clipped, unlabelled points are a dark grey visible on every region
// colour, and a dendrogram over more than AutoLeaves leaves is truncated as
// SciPy's truncate_mode="lastp" (DefaultLeaves leaves, each subtree shown
// as "(n)"; DendrogramOptions.Leaves changes it), with leaves named by row.
//
// Every builder validates its input and returns a *Figure: a grid of
// *plot.Plot panels that callers may still restyle. Figure.Save writes PNG
// or SVG, chosen by the file extension, to a temporary file in the target
// directory and renames it when complete, so a reader never sees half a
// file.
//
// Cost: a builder is linear in its points (a dendrogram in its N−1 links);
// DecisionRegions and Contours evaluate the user's function once on a
// Grid×Grid batch. Errors: ErrFormat (extension not .png or .svg), ErrInput
// (empty, mismatched or non-finite input, bad options), the predictor's own
// errors, and I/O errors from Save.
package figure
