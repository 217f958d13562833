#!/usr/bin/env bash
# Instructions a call at N values (default 128), svb against lemire's C, counted by callgrind
# (the run with ITERS calls minus the run with none, divided by ITERS; each harness's loop is
# in its figure: the C loop's `none` line, per_call's `Op::run` about 25 a call). Needs
# valgrind, gcc and the bench crate's c-peers build (cmake, libclang for bindgen).
set -euo pipefail
cd "$(dirname "$0")/../../.."
n=${1:-128}
iters=10000
cargo build --release -q -p svb-bench --features c-peers --example per_call
manifest=$(cargo metadata --format-version 1 --features svb-bench/c-peers |
  python3 -c 'import json, sys
print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "streamvbyte-sys"))')
src="$(dirname "$manifest")/external/streamvbyte"
out=target/lemire_instructions
mkdir -p "$out"
gcc -O3 -march=haswell -I"$src/include" -I"$src/src" benches/peers/lemire_instructions/main.c \
  "$src"/src/streamvbyte_{decode,encode,0124_decode,0124_encode,zigzag}.c \
  "$src"/src/streamvbytedelta_{decode,encode}.c -o "$out/lemire_instructions"
count() {
  local with without
  with=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" "$iters" 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
  without=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 0 2>&1 | sed -n 's/.*refs: *//p' | tr -d ,)
  echo $(((with - without) / iters))
}
printf '| n = %s | svb | lemire-c (-march=haswell) |\n|---|---:|---:|\n' "$n"
for pair in classic-decode:classic-dec:svb-block 0124-decode:0124-dec:svb-block \
  delta-decode-dense:delta-dec:svb-block classic-encode:classic-enc:svb \
  0124-encode:0124-enc:svb delta-encode-dense:delta-enc:svb; do
  IFS=: read -r ours theirs who <<<"$pair"
  printf '| %s | %s | %s |\n' "$ours ($who)" \
    "$(count target/release/examples/per_call "$ours" "$who" "$n")" \
    "$(count "$out/lemire_instructions" "$theirs" "$n")"
done
printf '| the loop alone | | %s |\n' "$(count "$out/lemire_instructions" none "$n")"
