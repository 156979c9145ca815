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
# CByteClasses is a header of inline C, found by its module map.
flags=(-O -sanitize=fuzzer,address -parse-as-library -swift-version 6 -package-name PlayerForm -I "$out"
    -I Sources/CByteClasses/include)

# A library module of the package, built from its whole folder as a static library. The package's
# own build is not used: libFuzzer brings its own main, so -sanitize=fuzzer cannot go on every
# target, and SwiftPM offers no fuzzer sanitizer. Each module's sources are globbed, so a file
# added to a module needs no change here; a module added to their dependencies does.
module() {
    local name=$1
    local sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    swiftc "${flags[@]}" -module-name "$name" -emit-module -emit-module-path "$out/$name.swiftmodule" \
        -emit-library -static -o "$out/lib$name.a" "${sources[@]}"
}
# The record readers and the rules, with what they import (no reactive code, no command line), in
# the order they depend on each other.
for name in PlayerFormJSON PlayerFormText PlayerFormRules PlayerFormRecords; do
    module "$name"
done
libraries=(-L "$out" -lPlayerFormRecords -lPlayerFormRules -lPlayerFormText -lPlayerFormJSON)

swiftc "${flags[@]}" -module-name FuzzRecords Fuzz/FuzzRecords.swift "${libraries[@]}" -o "$out/fuzz-records"
swiftc "${flags[@]}" -module-name FuzzRules Fuzz/FuzzRules.swift "${libraries[@]}" -o "$out/fuzz-rules"
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
