#!/bin/sh
# normalize.sh DIR: replaces the timings in a capture's standard output and
# error (run time, rows per second, eval's "fit s" column and its JSON
# fit_s/kernel_s) by placeholders, so that two captures compare equal when
# everything but the clock is.
set -eu
find "${1:?usage: normalize.sh DIR}" -name stdout -o -name stderr | while IFS= read -r f; do
	sed -i -E \
		-e 's/ in [0-9]+(\.[0-9]+)?(e-?[0-9]+)?(s|ms|µs)\b/ in Ts/g' \
		-e 's/\([0-9.]+(e\+?[0-9]+)? rows\/s\)/(R rows\/s)/g' \
		-e 's/\([0-9.]+s, [0-9.]+ rows\/s\)/(Ts, R rows\/s)/g' \
		-e 's/"(fit_s|kernel_s)":[-0-9.e+]+/"\1":0/g' \
		-e '/ {2,}.* {2,}.* {2,}/ s/ {2,}[0-9]+\.[0-9]+$/  T/' \
		"$f"
done
