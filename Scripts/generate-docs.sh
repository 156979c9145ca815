#!/usr/bin/env bash
# Regenerates the man page and the shell completion scripts of `playerform` from its argument
# parser's definitions:
#   docs/playerform.1                   man page (swift-argument-parser's generate-manual plugin)
#   docs/completions/playerform.bash    bash completion
#   docs/completions/_playerform        zsh completion
#   docs/completions/playerform.fish    fish completion
# Usage: Scripts/generate-docs.sh [FOLDER]   (default: docs; CI writes to a temporary folder and
# compares). Run it after changing an option, a subcommand or their help, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

out="${1:-docs}"
# A fixed date, so that the page is the same on every run and CI can compare it with diff.
date=2026-11-22

mkdir -p "$out/completions"
pages=.build/plugins/GenerateManual/outputs/playerform
rm -rf "$pages"
# A debug build: the plugin builds the package first, and the definitions are the same.
swift package plugin generate-manual --configuration debug --date "$date" >/dev/null
bin="$(swift build --show-bin-path)/playerform"
# The page ends with the REPL's commands, from its own help, then the environment, the files and
# every exit status (docs/man-sections.mdoc) in place of the parser's one-line EXIT STATUS.
{
    sed '/^\.Sh "EXIT STATUS"$/,$d' "$pages/playerform.1"
    echo ".Sh COMMANDS"
    echo "The commands of a session, typed at its prompt or given with -c and -f:"
    echo ".Bl -tag -width 6n"
    # A backslash is written \e in a man page.
    "$bin" -c help | sed 's/\\/\\e/g' | awk '
        /^Commands:/ { next }
        /^  [^ ]/ { sub(/^  /, ""); print ".It Ic \"" $0 "\""; next }
        /^      / { sub(/^ +/, ""); print; next }
        { tail = tail $0 " " }
        END { print ".El"; print tail }'
    cat docs/man-sections.mdoc
} >"$out/playerform.1"

"$bin" --generate-completion-script bash >"$out/completions/playerform.bash"
"$bin" --generate-completion-script zsh >"$out/completions/_playerform"
"$bin" --generate-completion-script fish >"$out/completions/playerform.fish"
