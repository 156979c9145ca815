#!/usr/bin/env bash
# Builds playerform as the README's Install section has people build it (release, one fully
# static executable: the Swift runtime, Foundation, SQLite, readline and glibc linked in), in
# .build-static so that the debug build in .build stays as it is, and prints the executable's path.
# The benchmarks measure this build; Scripts/check-release-build.sh checks it.
#
#   Scripts/release-build.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="/opt/swift/usr/bin:$PATH"
# The frontend flag has every module, GRDB's too, reach the metadata of its generic types through
# their accessors, not by mangled name: a name is resolved by scanning the program's protocol
# conformances, about a tenth of a millisecond each time, and a session did that a dozen times.
flags=(-c release --package-path "$root" --build-path "$root/.build-static" -Xswiftc -static-executable
    -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)
# Quiet unless the build fails; then its whole output goes to standard error.
if ! log="$(swift build "${flags[@]}" --product playerform 2>&1)"; then
    echo "$log" >&2
    exit 1
fi
echo "$(swift build "${flags[@]}" --show-bin-path)/playerform"
