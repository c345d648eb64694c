package arborbeam

import (
	"context"
	"fmt"
	"io"
	"strings"

	"cloud.google.com/go/storage"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/util/gcsx"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// openRange opens a gs:// or s3:// object from byte offset by a ranged
// request; ok is false for other filesystems.
func openRange(ctx context.Context, path string, offset int64) (r io.ReadCloser, ok bool, err error) {
	switch {
	case strings.HasPrefix(path, "gs://"):
		bucket, object, err := gcsx.ParseObject(path)
		if err != nil {
			return nil, true, err
		}
		client, err := gcsx.NewClient(ctx, storage.ScopeReadOnly)
		if err != nil {
			return nil, true, fmt.Errorf("%s: %w", path, err)
		}
		rd, err := client.Bucket(bucket).Object(object).NewRangeReader(ctx, offset, -1)
		if err != nil {
			client.Close()
			return nil, true, fmt.Errorf("%s: %w", path, err)
		}
		return closers{rd, client.Close}, true, nil
	case strings.HasPrefix(path, "s3://"):
		bucket, key, found := strings.Cut(strings.TrimPrefix(path, "s3://"), "/")
		if !found || bucket == "" || key == "" {
			return nil, true, fmt.Errorf("%s: not an s3://bucket/key path", path)
		}
		cfg, err := config.LoadDefaultConfig(ctx)
		if err != nil {
			return nil, true, fmt.Errorf("%s: %w", path, err)
		}
		out, err := s3.NewFromConfig(cfg).GetObject(ctx, &s3.GetObjectInput{
			Bucket: aws.String(bucket),
			Key:    aws.String(key),
			Range:  aws.String(fmt.Sprintf("bytes=%d-", offset)),
		})
		if err != nil {
			return nil, true, fmt.Errorf("%s: %w", path, err)
		}
		return out.Body, true, nil
	}
	return nil, false, nil
}

// closers reads from a reader and closes it, then the client behind it.
type closers struct {
	io.ReadCloser
	client func() error
}

func (c closers) Close() error {
	err := c.ReadCloser.Close()
	c.client()
	return err
}
