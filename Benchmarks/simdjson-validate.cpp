// The floor peer of Benchmarks/validate.py: the default player rules over a JSON Lines file with
// simdjson's on-demand iterate_many, printing "N records, K invalid".
//
// It applies the rules as the polars and DuckDB peers do: a record is invalid when "name" is not a
// string or "points" not a number, when the name is blank, holds a control character (C0, DEL, C1,
// U+2028, U+2029), or is a forbidden name once full-width forms are mapped to ASCII, lowercased
// and trimmed, or when the points are outside 0...10000. That is the generated records' share of
// the rules (Unicode normalisation beyond full-width forms is left out), so the counts agree with
// playerform's on them. Malformed JSON counts as invalid and ends the run, as simdjson stops there.
//
//   g++ -O3 -std=c++17 Benchmarks/simdjson-validate.cpp -lsimdjson -o simdjson-validate
//   ./simdjson-validate players.jsonl
#include <simdjson.h>

#include <cstdio>
#include <string>
#include <string_view>

namespace {

bool isSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// Whether the UTF-8 `name` breaks a name rule.
bool badName(std::string_view name) {
    std::string key;
    key.reserve(name.size());
    bool solid = false;
    for (size_t i = 0; i < name.size();) {
        unsigned char c = name[i];
        uint32_t scalar;
        size_t length;
        if (c < 0x80) {
            scalar = c;
            length = 1;
        } else if ((c & 0xE0) == 0xC0 && i + 1 < name.size()) {
            scalar = ((c & 0x1F) << 6) | (name[i + 1] & 0x3F);
            length = 2;
        } else if ((c & 0xF0) == 0xE0 && i + 2 < name.size()) {
            scalar = ((c & 0x0F) << 12) | ((name[i + 1] & 0x3F) << 6) | (name[i + 2] & 0x3F);
            length = 3;
        } else {
            scalar = 0xFFFD;
            length = (c & 0xF8) == 0xF0 ? 4 : 1;
        }
        i += length;
        if (scalar < 0x20 && !isSpace(scalar)) return true;
        if (scalar == 0x7F || (scalar >= 0x80 && scalar <= 0x9F) || scalar == 0x2028 || scalar == 0x2029)
            return true;
        if (scalar < 0x80 && isSpace(scalar)) {
            if (scalar != ' ') return true;  // tab, line feed and the like are control characters
            key.push_back(' ');
            continue;
        }
        solid = true;
        if (scalar >= 0xFF01 && scalar <= 0xFF5E) scalar -= 0xFEE0;
        if (scalar < 0x80) {
            key.push_back(scalar >= 'A' && scalar <= 'Z' ? char(scalar + 32) : char(scalar));
        } else {
            key.push_back('\x80');  // a character beyond ASCII: no forbidden name holds one
        }
    }
    if (!solid) return true;
    size_t first = key.find_first_not_of(' ');
    size_t last = key.find_last_not_of(' ');
    std::string_view trimmed(key.data() + first, last - first + 1);
    return trimmed == "darn" || trimmed == "poop" || trimmed == "dag nabbit";
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: simdjson-validate FILE\n");
        return 64;
    }
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[1]).get(json)) {
        std::fprintf(stderr, "cannot read %s\n", argv[1]);
        return 66;
    }
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document_stream stream;
    if (parser.iterate_many(json, 1 << 20).get(stream)) {
        std::fprintf(stderr, "cannot parse %s\n", argv[1]);
        return 65;
    }
    long records = 0;
    long invalid = 0;
    for (auto document : stream) {
        ++records;
        simdjson::ondemand::object object;
        if (document.get_object().get(object)) {
            ++invalid;
            continue;
        }
        std::string_view name;
        double points = 0;
        bool hasName = false;
        bool hasPoints = false;
        bool bad = false;
        for (auto field : object) {
            std::string_view key;
            if (field.unescaped_key().get(key)) {
                bad = true;
                break;
            }
            if (key == "name") {
                hasName = !field.value().get_string().get(name);
            } else if (key == "points") {
                hasPoints = !field.value().get_double().get(points);
            }
        }
        if (bad || !hasName || !hasPoints || !(points >= 0 && points <= 10000) || badName(name)) ++invalid;
    }
    std::printf("%ld records, %ld invalid\n", records, invalid);
    return 0;
}
