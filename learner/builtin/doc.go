// Package builtin registers Arbor's learner families with package
// learner's registry, one file each: the family's name, the flags
// documenting its settings, how those settings build its learners, and
// the loaders of its saved models. Import it (package pipeline does) to
// have them registered; a new family is one more file here.
//
// The registrations live beside the learner packages rather than in them
// so that a program using one learner (say knn.Classifier.FitGram) links
// neither the others nor the model loaders.
package builtin
