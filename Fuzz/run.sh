#!/usr/bin/env bash
# Builds the fuzz targets with libFuzzer and AddressSanitizer and fuzzes one for SECONDS (default
# 60). New inputs go to Fuzz/.build/corpus[-rules], crashes to Fuzz/.build/crashes/; the committed
# seeds in Fuzz/corpus and Fuzz/corpus-rules are read, never written.
#   Fuzz/run.sh 600          fuzz the record readers for ten minutes
#   Fuzz/run.sh rules 600    fuzz the rules-file reader for ten minutes
#   Fuzz/run.sh --build      only build both targets (a quick check that they compile)
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
# A trap is reported by AddressSanitizer; the Swift backtracer would trip over it.
export SWIFT_BACKTRACE=enable=no

out=Fuzz/.build
mkdir -p "$out/corpus" "$out/corpus-rules" "$out/crashes"
flags=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name PlayerForm -I "$out")

# A library module of the package, built from its folder as a static library.
module() {
    local name=$1 folder=$2
    local sources
    mapfile -t sources < <(find "Sources/$folder" -name '*.swift' | sort)
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" "${sources[@]}"
}
module PlayerFormJSON PlayerFormJSON
module PlayerFormText PlayerFormText
module ReactiveCore ReactiveCore
module PlayerForm PlayerForm

# The record readers only: besides the strict JSON reader they import nothing but the standard
# library and Glibc.
sources=()
for name in ByteSource LineReader ParsedRecord NumberText JSONRecordParser RecordFormat RecordReader \
    CSVFields; do
    sources+=("Sources/PlayerFormRecords/$name.swift")
done
swiftc "${flags[@]}" -module-name FuzzRecords "${sources[@]}" Fuzz/FuzzRecords.swift \
    -L "$out" -lPlayerFormJSON -o "$out/fuzz-records"
swiftc "${flags[@]}" -module-name FuzzRules Fuzz/FuzzRules.swift \
    -L "$out" -lPlayerForm -lPlayerFormText -lPlayerFormJSON -lReactiveCore -o "$out/fuzz-rules"
[ "${1:-}" = "--build" ] && exit 0

target=records
if [ "${1:-}" = "rules" ]; then
    target=rules
    shift
fi
if [ $target = rules ]; then
    "$out/fuzz-rules" "$out/corpus-rules" Fuzz/corpus-rules \
        -max_total_time="${1:-60}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$out/crashes/rules-" -print_final_stats=1
else
    "$out/fuzz-records" "$out/corpus" Fuzz/corpus \
        -max_total_time="${1:-60}" -max_len=4096 -timeout=10 -rss_limit_mb=1024 \
        -artifact_prefix="$out/crashes/" -print_final_stats=1
fi
