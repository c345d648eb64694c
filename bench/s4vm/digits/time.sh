#!/bin/sh
# Times S4VM one-vs-one on scikit-learn's digits (1,797 rows, 64 features,
# 10 classes, 10 labelled rows per class) with two builds of arbor in one
# run: the whole `arbor classify` process of the build of OLD (a git
# revision) beside that of NEW (default: the work tree), alternated REPS
# times, and checks that both write the same predictions.
#
#   sh bench/s4vm/digits/time.sh OLD [NEW] [REPS]
#
# Needs /usr/bin/python3 with scikit-learn (make_digits.py writes the data)
# and GNU time. Prints per run wall and CPU seconds (user + system), the
# ratios OLD / NEW, and "predictions identical" or exits 1.
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
OLD=$1
NEW=${2:-}
REPS=${3:-1}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
/usr/bin/python3 "$ROOT/bench/s4vm/digits/make_digits.py" "$TMP/digits10.csv" --labeled-per-class 10 --seed 1
build() { # build REV DIR: arbor of git revision REV (the work tree when empty) as DIR/arbor
	if [ -z "$1" ]; then
		(cd "$ROOT" && go build -o "$2/arbor" ./cmd/arbor)
	else
		mkdir -p "$2/src"
		git -C "$ROOT" archive "$1" | tar -x -C "$2/src"
		(cd "$2/src" && go build -o "$2/arbor" ./cmd/arbor)
	fi
}
build "$OLD" "$TMP/old"
build "$NEW" "$TMP/new"
for r in $(seq 1 "$REPS"); do
	for v in old new; do
		/usr/bin/time -f "%e %U %S" -o "$TMP/$v.time" "$TMP/$v/arbor" classify --data "$TMP/digits10.csv" \
			--learner s4vm --scale minmax --seed 1 --out "$TMP/$v.csv" --quiet
		tail -1 "$TMP/$v.time" | awk -v v="$v" -v r="$r" '{printf "%s %s: wall %s s, cpu %.2f s\n", v, r, $1, $2 + $3}'
		tail -1 "$TMP/$v.time" | awk '{print $1, $2 + $3}' >>"$TMP/$v.all"
	done
	cmp -s "$TMP/old.csv" "$TMP/new.csv" || { echo "predictions differ (run $r)"; exit 1; }
done
echo "predictions identical"
paste "$TMP/old.all" "$TMP/new.all" | awk '{w1+=$1; c1+=$2; w2+=$3; c2+=$4} END {printf "sum over runs: old wall %.1f s cpu %.1f s; new wall %.1f s cpu %.1f s; old/new: wall %.2f, cpu %.2f\n", w1, c1, w2, c2, w1/w2, c1/c2}'
