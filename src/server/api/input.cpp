#include "server/api/input.h"

#include <cmath>

#include "core/notation.h"
#include "core/utf8.h"
#include "server/accounts/names.h"
#include "server/api/game_names.h"
#include "server/protocol/text.h"
#include "server/storage/storage_common.h"

namespace echecs::server {

using nlohmann::json;

namespace {

ApiError bad(Reason reason, std::string message, std::string field = "", json params = json::object()) {
    return ApiError(reason, std::move(message), std::move(field), std::move(params));
}

bool bidi_control(char32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

bool invisible(char32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x00AD || (c >= 0x200B && c <= 0x200D) || c == 0x2060 ||
           c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) || (c >= 0xE000 && c <= 0xF8FF);
}

}  // namespace

json parse_body(std::string_view text) {
    if (text.empty()) return json::object();
    if (json_depth(text) > MAX_JSON_DEPTH)
        throw ApiError(Reason::json_too_deep,
                       "the body nests arrays and objects deeper than " + std::to_string(MAX_JSON_DEPTH), "",
                       {{"max", MAX_JSON_DEPTH}});
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw ApiError(Reason::json_invalid, "the body is not valid JSON (UTF-8)");
    if (!j.is_object()) throw ApiError(Reason::json_not_object, "the body must be a JSON object");
    return j;
}

std::string string_field(const json& j, const char* name, bool required, const std::string& prefix) {
    const std::string path = prefix + name;
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) {
        if (required) throw bad(Reason::field_missing, "missing field '" + path + "'", path);
        return "";
    }
    if (!it->is_string())
        throw bad(Reason::field_type, "field '" + path + "' must be a string", path, {{"expected", "string"}});
    return it->get<std::string>();
}

double number_field(const json& j, const char* name, double lo, double hi, const std::string& prefix) {
    const std::string path = prefix + name;
    auto it = j.find(name);
    if (it == j.end() || !it->is_number())
        throw bad(it == j.end() ? Reason::field_missing : Reason::field_type, path + " must be a number", path,
                  {{"expected", "number"}});
    const double v = it->get<double>();
    if (!(v >= lo && v <= hi))
        throw bad(Reason::number_range, path + " must be between " + dump(json(lo)) + " and " + dump(json(hi)), path,
                  {{"min", lo}, {"max", hi}});
    return v;
}

bool bool_field(const json& j, const char* name, bool fallback) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return fallback;
    if (!it->is_boolean())
        throw bad(Reason::field_type, std::string(name) + " must be true or false", name, {{"expected", "boolean"}});
    return it->get<bool>();
}

std::string parse_nickname(const json& body, const char* name) {
    std::string n = string_field(body, name, false);
    // nlohmann::json accepts only valid UTF-8 in strings, but say so if not.
    if (!valid_utf8(n)) throw bad(Reason::nickname_utf8, "the nickname is not valid UTF-8", name);
    while (!n.empty() && (n.back() == ' ' || n.back() == '\t')) n.pop_back();
    std::size_t start = 0;
    while (start < n.size() && (n[start] == ' ' || n[start] == '\t')) ++start;
    n.erase(0, start);
    if (n.empty()) return "Anonymous";
    std::size_t chars = 0;
    for (std::size_t i = 0; i < n.size();) {
        const char32_t c = utf8_decode(n, i);  // valid: checked above
        if (bidi_control(c))
            throw bad(Reason::nickname_bidi, "the nickname contains a bidirectional control character", name);
        if (invisible(c))
            throw bad(Reason::nickname_control, "the nickname contains control or invisible characters", name);
        ++chars;
    }
    if (chars > 20)
        throw bad(Reason::nickname_too_long, "the nickname is longer than 20 characters", name, {{"max", 20}});
    if (accounts::reserved_name(n)) throw bad(Reason::nickname_reserved, "the nickname '" + n + "' is reserved", name);
    return n;
}

TimeControl parse_time(const json& body, bool default_unlimited, const ServerOptions& opt) {
    auto it = body.find("time");
    if (it == body.end() || it->is_null()) {
        if (default_unlimited) return {};
        throw bad(Reason::field_missing, "missing field 'time'", "time");
    }
    if (!it->is_object()) throw bad(Reason::field_type, "time must be an object", "time", {{"expected", "object"}});
    const std::string kind = string_field(*it, "kind", true, "time.");
    TimeControl tc;
    if (kind == "realtime") {
        tc.kind = TimeControl::Realtime;
        tc.initial_ms = std::int64_t(std::llround(number_field(*it, "minutes", 0, 180, "time.") * 60000));
        tc.increment_ms = std::int64_t(std::llround(number_field(*it, "increment", 0, 180, "time.") * 1000));
        if (tc.initial_ms == 0 && tc.increment_ms == 0)
            throw bad(Reason::time_both_zero, "time.minutes and time.increment cannot both be 0", "time.minutes");
        if (tc.initial_ms < opt.min_initial_ms && tc.increment_ms < opt.min_increment_ms)
            throw bad(Reason::time_below_minimum,
                      "a real-time game needs at least " + std::to_string(opt.min_initial_ms / 1000) +
                          " seconds or an increment of at least " + std::to_string(opt.min_increment_ms / 1000) +
                          " second(s)",
                      "time.minutes", {{"min_ms", opt.min_initial_ms}, {"min_increment_ms", opt.min_increment_ms}});
        if (tc.initial_ms == 0) tc.initial_ms = tc.increment_ms;  // 0+n: the first move gets n seconds
    } else if (kind == "correspondence") {
        tc.kind = TimeControl::Correspondence;
        const double d = number_field(*it, "days", 1, 14, "time.");
        if (d != std::floor(d)) throw bad(Reason::number_whole, "time.days must be a whole number", "time.days");
        tc.days = int(d);
    } else if (kind == "unlimited") {
        tc.kind = TimeControl::Unlimited;
    } else {
        throw bad(Reason::time_kind_unknown, "time.kind must be realtime, correspondence or unlimited", "time.kind");
    }
    return tc;
}

Variant parse_variant(const json& body) {
    const std::string v = string_field(body, "variant", false);
    if (v.empty()) return Variant::Chess;
    return read_variant(v);
}

std::string parse_color(const json& body) {
    const std::string c = string_field(body, "color", false);
    if (c.empty()) return "random";
    if (c != color_name(WHITE) && c != color_name(BLACK) && c != "random")
        throw bad(Reason::color_unknown, "color must be white, black or random", "color");
    return c;
}

namespace {
// The FEN reader's error with its key (`problem`) and parameters, which the
// client says in the user's language; `detail` in English.
ApiError fen_invalid(const FenError& e) {
    const std::string detail = to_valid_utf8(e.what());
    json params = {{"detail", detail}};
    if (!e.detail.key.empty()) params["problem"] = e.detail.key;
    for (const auto& [k, v] : e.detail.params) params[k] = to_valid_utf8(v);
    return bad(Reason::fen_invalid, "fen: " + detail, "fen", std::move(params));
}
}  // namespace

std::string parse_start_fen(const json& b, Variant v) {
    const std::string fen = string_field(b, "fen", false);
    if (fen.empty()) return std::string(Position::START_FEN);
    if (fen.size() > 200) throw bad(Reason::fen_too_long, "fen: longer than 200 characters", "fen", {{"max", 200}});
    std::unique_ptr<Game> g;
    try {
        g = std::make_unique<Game>(v, fen);
    } catch (const FenError& e) {
        throw fen_invalid(e);
    }
    if (g->result().over()) throw bad(Reason::fen_game_over, "fen: the game is already over in this position", "fen");
    return g->position().fen();
}

Analysis replay_analysis(const json& b) {
    Analysis a;
    const Variant v = parse_variant(b);
    a.fen = string_field(b, "fen", false);
    if (a.fen.empty()) a.fen = std::string(Position::START_FEN);
    if (a.fen.size() > 200) throw bad(Reason::fen_too_long, "fen: longer than 200 characters", "fen", {{"max", 200}});
    try {
        a.game = std::make_unique<Game>(v, a.fen);
    } catch (const FenError& e) {
        throw fen_invalid(e);
    } catch (const std::exception& e) {
        const std::string detail = to_valid_utf8(e.what());
        throw bad(Reason::fen_invalid, "fen: " + detail, "fen", {{"detail", detail}});
    }
    auto it = b.find("moves");
    if (it == b.end() || it->is_null()) return a;
    if (!it->is_array())
        throw bad(Reason::field_type, "moves must be an array of strings", "moves", {{"expected", "array"}});
    if (it->size() > 1000) throw bad(Reason::moves_too_many, "at most 1000 moves", "moves", {{"max", 1000}});
    for (std::size_t i = 0; i < it->size(); ++i) {
        const std::string path = "moves[" + std::to_string(i) + "]";
        const json& m = (*it)[i];
        if (!m.is_string())
            throw bad(Reason::field_type, path + " must be a string", path, {{"index", i}, {"expected", "string"}});
        if (a.game->result().over())
            throw bad(Reason::move_after_end, path + ": the game is already over", path, {{"index", i}});
        Position& pos = a.game->position();
        Move mv;
        try {
            mv = parse_uci(pos, m.get<std::string>());
        } catch (const std::exception& e) {
            const std::string detail = to_valid_utf8(e.what());
            throw bad(Reason::move_illegal, path + ": " + detail, path, {{"index", i}, {"detail", detail}});
        }
        a.san.push_back(to_san(pos, mv));
        a.uci.push_back(to_uci(mv));
        a.game->play(mv);
    }
    return a;
}

}  // namespace echecs::server
