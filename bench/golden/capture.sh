#!/bin/sh
# capture.sh OUTDIR: builds arbor from this repository and runs every command
# of commands.txt, each in its own scratch directory holding a copy of
# examples/, writing to OUTDIR/NN/ the command line, its standard output,
# standard error, exit status and every file it wrote. Two captures of the
# same behaviour compare equal with diff -r.
#   DATA: the shared data sets (default ../shared/data beside the repository).
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
out=${1:?usage: capture.sh OUTDIR}
DATA=${DATA:-$(cd "$repo/.." && pwd)/shared/data}
[ -d "$DATA" ] || { echo "capture.sh: no data directory $DATA (set DATA)" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$repo" && go build -o "$tmp/arbor" ./cmd/arbor) || exit 1
work="$tmp/work"
mkdir -p "$work"
cp -r "$repo/examples" "$work/examples"
n=0
grep -v '^#' "$here/commands.txt" | grep -v '^$' | while IFS= read -r line; do
	n=$((n + 1))
	d=$(printf '%s/%02d' "$out" "$n")
	mkdir -p "$d/files"
	args=$(printf '%s' "$line" | sed "s|@DATA@|$DATA|g")
	printf '%s\n' "$line" >"$d/command"
	touch "$tmp/stamp"; sleep 1
	(cd "$work" && eval "\"$tmp/arbor\" $args" >"$d/stdout" 2>"$d/stderr"; echo $? >"$d/status")
	find "$work" -type f -newer "$tmp/stamp" ! -path "$work/examples/*" | while IFS= read -r f; do
		cp "$f" "$d/files/"
	done
	# Paths of the scratch directories are not part of the output.
	sed -i "s|$tmp|TMP|g; s|$DATA|DATA|g" "$d/stdout" "$d/stderr"
	echo "$(cat "$d/status") arbor $line" >&2
done
"$here/normalize.sh" "$out"
