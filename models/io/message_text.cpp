#include "models/io/message_text.hpp"

#include "models/io/text_format.hpp"

namespace sonicsim {
namespace {

constexpr std::size_t kMaxSnippet = 80;
constexpr std::size_t kMaxMessage = 1000;

// Length of the well-formed UTF-8 sequence starting at text[i] (RFC 3629), 0 if it is not one.
std::size_t utf8_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned min = 0;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2, min = 0x80;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3, min = 0x800;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4, min = 0x10000;
  else
    return 0;
  if (i + length > text.size()) return 0;
  unsigned code = lead & (0xFF >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

std::string escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
      ++i;
    } else if (c == '\n') {
      out += "\\n", ++i;
    } else if (c == '\r') {
      out += "\\r", ++i;
    } else if (c == '\t') {
      out += "\\t", ++i;
    } else if (const std::size_t n = c >= 0x80 ? utf8_length(text, i) : 0; n > 0) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += printf_string("\\x%02X", c);
      ++i;
    }
  }
  return out;
}

// Cuts at most `max` bytes, not inside a UTF-8 sequence.
std::string_view head(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text;
  while (max > 0 && (static_cast<unsigned char>(text[max]) & 0xC0) == 0x80) --max;
  return text.substr(0, max);
}

std::string_view tail(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text;
  std::size_t start = text.size() - max;
  while (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) ++start;
  return text.substr(start);
}

std::string shortened(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  const std::size_t keep = max_chars > 3 ? max_chars - 3 : 0;
  return std::string(head(text, keep - keep / 3)) + "..." + std::string(tail(text, keep / 3));
}

}  // namespace

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
    } else if (const std::size_t n = utf8_length(text, i); n > 0) {
      i += n;
    } else {
      return i;
    }
  }
  return std::string_view::npos;
}

bool valid_utf8(std::string_view text) { return first_invalid_utf8(text) == std::string_view::npos; }

std::string printable(std::string_view text, std::size_t max_chars) { return shortened(escaped(text), max_chars); }

std::string one_line(std::string_view message) {
  const std::string text = escaped(message);
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t close = text[i] == '"' ? text.find('"', i + 1) : std::string::npos;
    if (close != std::string::npos && close - i - 1 > kMaxSnippet) {
      out += '"' + shortened(text.substr(i + 1, close - i - 1), kMaxSnippet) + '"';
      i = close + 1;
    } else {
      out += text[i++];
    }
  }
  return shortened(out, kMaxMessage);
}

}  // namespace sonicsim
