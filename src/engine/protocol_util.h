// Small helpers shared by the UCI and xboard loops.
#pragma once

#include <cctype>
#include <charconv>
#include <cstdint>
#include <mutex>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace echecs::engine {

// Serialises whole lines written by the protocol thread and the search thread.
class LineWriter {
public:
    explicit LineWriter(std::ostream& os) : os_(os) {}
    void operator()(const std::string& line) {
        std::lock_guard<std::mutex> lock(m_);
        os_ << line << '\n' << std::flush;
    }

private:
    std::ostream& os_;
    std::mutex m_;
};

inline std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream is{std::string(s)};
    for (std::string w; is >> w;) out.push_back(w);
    return out;
}

inline std::optional<std::int64_t> parse_int(std::string_view s) {
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

inline std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace echecs::engine
