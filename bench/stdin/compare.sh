#!/bin/sh
# compare.sh DIR [ROUNDS]: times `arbor predict` reading 10^6 rows from a
# file and from standard input (cat FILE | arbor predict --data -), plain
# and gzip, each a whole process under /usr/bin/time, the four runs
# alternating for ROUNDS rounds (default 3), and checks that the four
# prediction files are identical. The data are bench/predictbig's (10
# features, 10 classes); the model a 200-landmark RBF SVM fitted on 20,000
# rows with 100 labels. DIR keeps the files (some 200 MB); the sums and
# the ratios stdin/file are printed at the end.
set -eu
dir=${1:?usage: compare.sh DIR [ROUNDS]}
rounds=${2:-3}
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
(cd "$repo" && go build -o "$dir/arbor" ./cmd/arbor)
cd "$dir"
[ -f train.csv ] || (cd "$repo" && go run ./bench/predictbig -n 20000 -labeled-per-class 10 -out "$dir/train.csv")
[ -f big.csv ] || (cd "$repo" && go run ./bench/predictbig -n 1000000 -seed 2 -out "$dir/big.csv")
[ -f big.csv.gz ] || gzip -k -1 big.csv
./arbor classify --data train.csv --label class --kernel rbf --landmarks 200 --learner svm \
	--save-model m.arbor --out fit.csv --quiet
: >times.txt
t() { # name command...
	name=$1
	shift
	/usr/bin/time -a -o times.txt -f "$name wall %e cpu %U %S rss %M" "$@"
}
r=0
while [ "$r" -lt "$rounds" ]; do
	r=$((r + 1))
	t file ./arbor predict --model m.arbor --data big.csv --out p-file.csv --quiet
	t stdin sh -c 'cat big.csv | ./arbor predict --model m.arbor --data - --out p-stdin.csv --quiet'
	t gzstdin sh -c 'cat big.csv.gz | ./arbor predict --model m.arbor --data - --out p-gzstdin.csv --quiet'
	t gzfile ./arbor predict --model m.arbor --data big.csv.gz --out p-gzfile.csv --quiet
done
cat times.txt
for p in p-stdin.csv p-gzstdin.csv p-gzfile.csv; do cmp p-file.csv "$p"; done
echo "predictions identical"
awk '{w[$1] += $3; c[$1] += $5 + $6; if ($8 > m[$1]) m[$1] = $8}
END {
	for (k in w) printf "%-8s wall %.2f s cpu %.2f s max rss %d KiB\n", k, w[k], c[k], m[k]
	printf "stdin/file: wall %.2f cpu %.2f; gzip stdin/file: wall %.2f cpu %.2f\n", w["stdin"] / w["file"], c["stdin"] / c["file"], w["gzstdin"] / w["gzfile"], c["gzstdin"] / c["gzfile"]
}' times.txt
