function __playerform_should_offer_completions_for_flags_or_options -a expected_commands
    set -l non_repeating_flags_or_options $argv[2..]
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __playerform_parse_tokens
    test "$commands" = "$expected_commands"; and return $non_repeating_flags_or_options_absent
end

function __playerform_should_offer_completions_for_positional -a expected_commands positional_index_comparison expected_positional_index
    set -l non_repeating_flags_or_options
    set -l non_repeating_flags_or_options_absent 0
    set -l positional_index 0
    set -l commands
    __playerform_parse_tokens
    test "$commands" = "$expected_commands" -a \( "$positional_index" "$positional_index_comparison" "$expected_positional_index" \)
end

function __playerform_parse_tokens -S
    set -l unparsed_tokens (__playerform_tokens -pc)
    switch $unparsed_tokens[1]
    case 'playerform'
        __playerform_parse_subcommand 0 'config=' 'store=' 'no-color' 'bail' 'history-file=' 'c/command=+' 'f/file=+' 'echo' 'o/output=' 'q/quiet' 'csv' 'json' 'A/no-align' 't/tuples-only' 'X/no-rc' 'V' 'no-pager' 'version' 'h/help'
        switch $unparsed_tokens[1]
        case 'validate'
            __playerform_parse_subcommand -r 1 'files0-from=' 'input-format=' 'delimiter=' 'format=' 'quiet' 'report-only' 'unique' 'max-errors=' 'valid=' 'invalid=' 'config=' 'version' 'h/help'
        case 'import'
            __playerform_parse_subcommand -r 1 'version' 'h/help'
        case 'export'
            __playerform_parse_subcommand 0 'format=' 'version' 'h/help'
        case 'check'
            __playerform_parse_subcommand 0 'repair' 'version' 'h/help'
        case 'help'
            __playerform_parse_subcommand -r 1 'version'
        end
    end
end

function __playerform_tokens
    if test (string split -m 1 -f 1 -- . "$FISH_VERSION") -gt 3
        commandline --tokens-raw $argv
    else
        commandline -o $argv
    end
end

function __playerform_parse_subcommand -S -a positional_count
    argparse -s r -- $argv
    set -l option_specs $argv[2..]
    set -l is_repeating_positional $_flag_r
    set -el _flag_r
    set -a commands $unparsed_tokens[1]
    set positional_index 0
    while true
        set -e unparsed_tokens[1]
        argparse -sn "$commands" $option_specs -- $unparsed_tokens 2> /dev/null
        set unparsed_tokens $argv
        set positional_index (math $positional_index + 1)
        for non_repeating_flag_or_option in $non_repeating_flags_or_options
            if set -ql "_flag_$(string replace -a - _ -- $non_repeating_flag_or_option)"
                set non_repeating_flags_or_options_absent 1
                break
            end
        end
        test (count $unparsed_tokens) -eq 0 -o \( -z "$is_repeating_positional" -a "$positional_index" -gt "$positional_count" \) && break
    end
end

function __playerform_complete_directories
    set -l token (commandline -t)
    string match -- '*/' $token
    set -l subdirs $token*/
    printf %s\n $subdirs
end

function __playerform_custom_completion
    set -x SAP_SHELL fish
    set -x SAP_SHELL_VERSION $FISH_VERSION
    set -l tokens (__playerform_tokens -p)
    if test -z "$(__playerform_tokens -t)"
        set -l index (count (__playerform_tokens -pc))
        set tokens $tokens[..$index] \'\' $tokens[(math $index + 1)..]
    end
    command $tokens[1] $argv $tokens
end

complete -c 'playerform' -f
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" config' -l 'config' -d 'A JSON rules file, such as {"max": 500}.' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" store' -l 'store' -d 'The score database, or a shared league: postgres://USER@HOST[:PORT]/DB or libpq\'s keywords, such as \'service=league\' (default: $PLAYERFORM_STORE, else $XDG_DATA_HOME/playerform/scores.sqlite, else ~/.local/share/playerform/scores.sqlite).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" no-color' -l 'no-color' -d 'Never colour the output (NO_COLOR=1 does the same).'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" bail' -l 'bail' -d 'When reading a script, stop at the first failed command.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" history-file' -l 'history-file' -d 'Where to keep the history (default: $XDG_STATE_HOME/playerform/history; /dev/null turns it off).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform"' -s 'c' -l 'command' -d 'Run COMMAND as a script line, then exit (repeatable).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform"' -s 'f' -l 'file' -d 'Run the commands in FILE (- for standard input), then exit (repeatable).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" echo' -l 'echo' -d 'In a script, print each line before what it prints.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" o output' -s 'o' -l 'output' -d 'Write the results to FILE, replacing it (- for standard output); prompts and errors stay where they are.' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" q quiet' -s 'q' -l 'quiet' -d 'Start an interactive session without the greeting line.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" csv' -l 'csv' -d 'Write players\' rows (and show and rules) as CSV or as JSON from the start, as the mode command does.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" json' -l 'json' -d 'Write players\' rows (and show and rules) as CSV or as JSON from the start, as the mode command does.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" A no-align' -s 'A' -l 'no-align' -d 'Write players\' rows unaligned, fields between |, from the start, as psql\'s -A does.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" t tuples-only' -s 't' -l 'tuples-only' -d 'Write players\' rows without the title and the header row from the start, as tuples on does.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" X no-rc' -s 'X' -l 'no-rc' -d 'Do not run the start-up file (~/.config/playerform/playerformrc, else ~/.playerformrc).'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" V' -s 'V' -d 'Print the version and the libraries in use, as --version does.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" no-pager' -l 'no-pager' -d 'At a terminal, write long output directly instead of through $PAGER (less -FRX).'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" version' -l 'version' -d 'Show the version.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_positional "playerform" -eq 1' -fa 'validate' -d 'Check files of player records against the player rules.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_positional "playerform" -eq 1' -fa 'import' -d 'Add the records of score files to the score database.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_positional "playerform" -eq 1' -fa 'export' -d 'Write every stored score record to standard output.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_positional "playerform" -eq 1' -fa 'check' -d 'Verify the store; with --repair, rebuild the players from the scores.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_positional "playerform" -eq 1' -fa 'help' -d 'Show subcommand help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" files0-from' -l 'files0-from' -d 'Read the inputs\' paths from FILE, each ended by a NUL byte (- for standard input), as find -print0 writes them.' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" input-format' -l 'input-format' -d 'The format of the inputs, when the extension or the first line does not tell.' -rfka 'jsonl csv'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" delimiter' -l 'delimiter' -d 'What separates a CSV\'s fields: , ; or tab (default: told from the header row).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" format' -l 'format' -d 'How findings are written: text for people, json for JSON Lines.' -rfka 'text json'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" quiet' -l 'quiet' -d 'Print only the summary.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" report-only' -l 'report-only' -d 'Print the report by reason and the summary, without a finding per record.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" unique' -l 'unique' -d 'Count a player already in the same file (the same name as the form compares names) as invalid.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" max-errors' -l 'max-errors' -d 'Stop after N invalid records, saying so, with exit status 2 (default: check every record).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" valid' -l 'valid' -d 'Write the valid records, byte for byte, to FILE (- for standard output; the findings then go to standard error).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" invalid' -l 'invalid' -d 'Write the invalid and malformed records, byte for byte, to FILE (- for standard output).' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" config' -l 'config' -d 'A JSON rules file, such as {"max": 500}.' -rfka ''
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" version' -l 'version' -d 'Show the version.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform validate" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform import" version' -l 'version' -d 'Show the version.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform import" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform export" format' -l 'format' -d 'The output format.' -rfka 'jsonl csv'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform export" version' -l 'version' -d 'Show the version.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform export" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform check" repair' -l 'repair' -d 'Rebuild the players and their counts from the scores when they disagree.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform check" version' -l 'version' -d 'Show the version.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform check" h help' -s 'h' -l 'help' -d 'Show help information.'
complete -c 'playerform' -n '__playerform_should_offer_completions_for_flags_or_options "playerform help" version' -l 'version' -d 'Show the version.'
