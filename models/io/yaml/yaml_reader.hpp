#pragma once
// YAML documents read as Helm reads a values file, into the JSON value sonicsim's readers walk
// (json_reader.hpp), so that every complaint names the file and the JSON pointer of the value.
//
// Helm reads values with sigs.k8s.io/yaml over go-yaml v2, and so does this reader where it matters:
// plain scalars resolve as go-yaml v2's resolve.go does (null: "", ~, null, Null, NULL; booleans:
// true/false, yes/no, y/n, on/off in their three casings; integers in decimal, 0x hex, 0o or leading-0
// octal and 0b binary, with underscores; floats), quoted and block scalars are strings, and a merge
// key (<<: *anchor, or a list of them) copies the merged maps' keys in document order, as v2 does.
// Where Helm would pass something doubtful silently, this reader refuses it with an InputError:
// a key repeated in one map (v2 keeps the last), NaN and infinities, text that is not UTF-8 or holds
// control characters (named by line and column, as go-yaml's reader refuses them), tags
// other than YAML's standard ones, keys that are not scalars, more than one document, nesting
// deeper than kMaxJsonDepth, and more than kMaxYamlValues values once aliases are expanded (an
// alias "bomb" stays a few bytes in the file). Syntax errors name the line and column, and say so
// when a tab indents the line.
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace sonicsim {

// Values a YAML document may hold once its aliases are expanded (a chart's values.yaml has ~300).
inline constexpr std::size_t kMaxYamlValues = 100'000;
// A values file is a few kilobytes (SuperSONIC's chart: 12 KB); yaml-cpp keeps ~200 bytes per value.
inline constexpr std::size_t kMaxValuesFileBytes = std::size_t{1} << 20;  // 1 MiB

// Parses YAML text; an empty document is null.
nlohmann::json parse_yaml_text(const std::string& text, const std::string& file);

// Reads (at most `max_bytes`, see input_file.hpp) and parses a YAML file.
nlohmann::json read_yaml_file(const std::string& path, std::size_t max_bytes = kMaxValuesFileBytes);

}  // namespace sonicsim
