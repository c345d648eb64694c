package main

import (
	"flag"

	"github.com/arbor-ml/arbor/dataset"
)

// columnFlags are the column-role flags every job that reads data files
// takes, as arbor's commands name them.
type columnFlags struct {
	label, id, ignore, features, sep *string
	noHeader                         *bool
}

// register defines the flags on fs; idUsage and labelUsage say what the
// job does with those columns.
func (c *columnFlags) register(fs *flag.FlagSet, idUsage, labelUsage, featuresUsage string) {
	c.id = fs.String("id", "", idUsage)
	c.label = fs.String("label", "", labelUsage)
	c.features = fs.String("features", "", featuresUsage)
	c.ignore = fs.String("ignore", "", "columns to skip, comma-separated names or positions")
	c.noHeader = fs.Bool("no-header", false, "the first row is data, not column names")
	c.sep = fs.String("sep", "", "separator: comma, tab, semicolon, pipe or whitespace (default: found from the first lines)")
}

// options checks --sep and returns the reader's options (missing values
// allowed, the label column optional).
func (c *columnFlags) options() (dataset.CSVOptions, error) {
	if _, err := dataset.ParseSep(*c.sep); err != nil {
		return dataset.CSVOptions{}, usagef("--sep: %v", err)
	}
	return dataset.CSVOptions{
		Label: *c.label, NoLabel: *c.label == "none", ID: *c.id, NoHeader: *c.noHeader, Sep: *c.sep,
		LabelOptional: *c.label == "" || *c.label == "none", AllowMissing: true,
		Ignore: splitStrings(*c.ignore), Features: splitStrings(*c.features),
	}, nil
}
