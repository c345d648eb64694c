// Package arborbeam runs Arbor's saved pipelines on Apache Beam: the
// transforms here go into a user's own Beam pipeline (see the command
// arbor-beam for a ready-made one per job) and run on any Beam runner
// (prism, direct, Flink, Spark, Dataflow).
//
// Predict labels delimited text files (CSV/TSV, matched by a glob on any
// Beam filesystem) with a model saved by arbor classify --save-model. Each
// file is read once for its header and separator, then in byte ranges by
// a splittable DoFn that seeks to its range, puts the header in front and
// hands each chunk of rows (DefaultChunk) to the model's own streaming
// reader (pipeline.Pipeline.StreamPart), so the columns, the separator and
// the errors are those of arbor predict. A gzip file is read whole by one
// worker, never split.
//
// What a DoFn carries to the workers is its exported fields, as JSON: the
// model's path (read once per worker process, see LoadModel) and the
// reader settings; never the model itself.
package arborbeam
