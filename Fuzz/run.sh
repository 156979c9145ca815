#!/usr/bin/env bash
# Builds the record readers with libFuzzer and AddressSanitizer and fuzzes them for SECONDS
# (default 60). New inputs go to Fuzz/.build/corpus, crashes to Fuzz/.build/crashes/; the
# committed seeds in Fuzz/corpus are read, never written.
#   Fuzz/run.sh 600          fuzz for ten minutes
#   Fuzz/run.sh --build      only build (a quick check that the target compiles)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# The readers only: they import nothing but the standard library and Glibc.
sources=()
for name in ByteSource LineReader ParsedRecord NumberText JSONCursor JSONRecordParser RecordFormat RecordReader \
    CSVFields; do
    sources+=("Sources/PlayerFormRecords/$name.swift")
done
out=Fuzz/.build
mkdir -p "$out/corpus" "$out/crashes"
swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name FuzzRecords \
    "${sources[@]}" \
    Fuzz/FuzzRecords.swift -o "$out/fuzz-records"
[ "${1:-}" = "--build" ] && exit 0

"$out/fuzz-records" "$out/corpus" Fuzz/corpus \
    -max_total_time="${1:-60}" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
    -artifact_prefix="$out/crashes/" -print_final_stats=1
