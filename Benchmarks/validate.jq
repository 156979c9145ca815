# The default player rules as a jq filter, for comparing with `playerform validate`.
# jq has no Unicode normalization, so the NFKC step covers what the generated data needs:
# full-width ASCII (U+FF01...U+FF5E) is mapped to ASCII before lowercasing and trimming. Names with
# control characters (C0, DEL, C1, U+2028, U+2029) are invalid.
def key: explode | map(if . >= 65281 and . <= 65374 then . - 65248 else . end) | implode
  | ascii_downcase | sub("^\\s+"; "") | sub("\\s+$"; "");
reduce (inputs | (.name | type) == "string" and (.points | type) == "number"
  and (.name | test("^\\s*$") | not)
  and (.name | explode | any(. < 32 or (. >= 127 and . <= 159) or . == 8232 or . == 8233) | not)
  and ((.name | key) as $k | ["dag nabbit", "darn", "poop"] | index([$k]) | not)
  and .points >= 0 and .points <= 10000) as $ok
  ({records: 0, invalid: 0}; .records += 1 | if $ok then . else .invalid += 1 end)
| "\(.records) records, \(.invalid) invalid"
