#include "utf8.h"

#include <utility>

namespace echecs {

namespace {

void append_hex_byte(std::string& out, unsigned char c) {
    constexpr char HEX[] = "0123456789ABCDEF";
    out += "\\x";
    out += HEX[c >> 4];
    out += HEX[c & 15];
}

void append_code_point(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

// Windows-1252 bytes 0x80-0x9F; the five it leaves undefined map to the C1
// controls of the same value, as Latin-1 would read them.
constexpr char16_t CP1252_HIGH[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
};

void append_quoted_char(std::string& out, std::string_view s, std::size_t i, std::size_t len) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (len == 0 || (len == 1 && (c < 0x20 || c == 0x7F)))
        append_hex_byte(out, c);
    else
        out.append(s.substr(i, len));
}

}  // namespace

namespace {

// The code point of the valid sequence at s[i] and its length, or {0, 0}.
std::pair<char32_t, std::size_t> decode_at(std::string_view s, std::size_t i) {
    if (i >= s.size()) return {0, 0};
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return {c, 1};
    std::size_t len;
    char32_t cp;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, cp = c & 0x07;
    else
        return {0, 0};
    if (s.size() - i < len) return {0, 0};
    for (std::size_t k = 1; k < len; ++k) {
        const unsigned char d = static_cast<unsigned char>(s[i + k]);
        if ((d & 0xC0) != 0x80) return {0, 0};
        cp = cp << 6 | (d & 0x3F);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return {0, 0};  // overlong, too big
    if (cp >= 0xD800 && cp <= 0xDFFF) return {0, 0};                                               // surrogate
    return {cp, len};
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) { return decode_at(s, i).second; }

char32_t utf8_decode(std::string_view s, std::size_t& i) {
    const auto [cp, len] = decode_at(s, i);
    i += len;
    return cp;
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

std::string quote_input(std::string_view s, std::size_t max_bytes) {
    std::string out = "'";
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t len = utf8_sequence_length(s, i);
        const std::size_t step = len ? len : 1;
        if (i + step > max_bytes) {
            out += "...";
            break;
        }
        append_quoted_char(out, s, i, len);
        i += step;
    }
    return out + "'";
}

std::string quote_char_at(std::string_view s, std::size_t i) {
    std::string out = "'";
    if (i < s.size()) append_quoted_char(out, s, i, utf8_sequence_length(s, i));
    return out + "'";
}

std::string to_utf8_from_legacy(std::string_view s) {
    if (is_valid_utf8(s)) return std::string(s);
    std::string out;
    out.reserve(s.size() + s.size() / 8);
    for (char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        if (c < 0x80)
            out += ch;
        else
            append_code_point(out, c < 0xA0 ? CP1252_HIGH[c - 0x80] : char32_t(c));
    }
    return out;
}

std::string replace_invalid_utf8(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    return out;
}

}  // namespace echecs
