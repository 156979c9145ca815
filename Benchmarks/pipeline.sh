#!/usr/bin/env bash
# Per-edit cost of the view model's name -> validity pipeline against a hand-written baseline.
# Usage: Benchmarks/pipeline.sh
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product PipelineBenchmark >&2
bin=$(swift build -c release --show-bin-path)
LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/PipelineBenchmark"
