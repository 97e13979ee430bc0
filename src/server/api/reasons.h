// The server's one error type and its one table. Every refusal the server
// and its libraries (accounts, problems, study) send has a stable snake_case
// `reason` (the client translates it), and the reason alone decides the HTTP
// status and the general `code`: the table below is the only place that says
// them. A reason is an enumerator of this table, so a reason the table does
// not hold does not compile; the `reasons` tests check that docs/API.md and
// both languages of the web client (web/src/i18n.ts) know every one.
//
// Header only, so that the libraries below the server (they may include this
// header and nothing else of the server: scripts/check-layers.sh) report the
// same ApiError without linking the server.
#pragma once

#include <algorithm>
#include <cstdint>
#include <exception>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace echecs::server {

// The general codes (what the web client falls back on for a reason it does
// not know yet).
#define ECHECS_API_CODES(X) \
    X(bad_request)          \
    X(bad_json)             \
    X(bad_message)          \
    X(unknown_type)         \
    X(unauthorized)         \
    X(forbidden)            \
    X(not_your_seat)        \
    X(not_your_turn)        \
    X(illegal_move)         \
    X(stale)                \
    X(not_found)            \
    X(conflict)             \
    X(game_over)            \
    X(not_allowed)          \
    X(too_large)            \
    X(rate_limited)         \
    X(unavailable)          \
    X(internal)

// reason, its code, its HTTP status. Grouped by code; docs/API.md lists them
// the same way (its "Errors" table and its list of statuses).
#define ECHECS_API_REASONS(X)                          \
    /* the body or message is not a JSON object */     \
    X(json_invalid, bad_json, 400)                     \
    X(json_not_object, bad_json, 400)                  \
    X(json_too_deep, bad_json, 400)                    \
    /* a field of a request */                         \
    X(field_missing, bad_request, 400)                 \
    X(field_type, bad_request, 400)                    \
    X(number_range, bad_request, 400)                  \
    X(number_whole, bad_request, 400)                  \
    X(variant_unknown, bad_request, 400)               \
    X(color_unknown, bad_request, 400)                 \
    X(time_kind_unknown, bad_request, 400)             \
    X(time_both_zero, bad_request, 400)                \
    X(time_below_minimum, bad_request, 400)            \
    X(nickname_too_long, bad_request, 400)             \
    X(nickname_control, bad_request, 400)              \
    X(nickname_bidi, bad_request, 400)                 \
    X(nickname_reserved, bad_request, 400)             \
    X(nickname_utf8, bad_request, 400)                 \
    X(fen_too_long, bad_request, 400)                  \
    X(fen_invalid, bad_request, 400)                   \
    X(fen_game_over, bad_request, 400)                 \
    X(moves_too_many, bad_request, 400)                \
    X(move_illegal, bad_request, 400)                  \
    X(move_after_end, bad_request, 400)                \
    X(status_unknown, bad_request, 400)                \
    X(before_invalid, bad_request, 400)                \
    X(rated_unlimited, bad_request, 400)               \
    X(rating_range_invalid, bad_request, 400)          \
    X(rating_range_unlimited, bad_request, 400)        \
    X(tournament_kind_unknown, bad_request, 400)       \
    X(tournament_time, bad_request, 400)               \
    X(content_type, bad_request, 415)                  \
    X(method_not_allowed, bad_request, 405)            \
    X(path_invalid, bad_request, 400)                  \
    X(http_malformed, bad_request, 400)                \
    /* problems (the solver, Popeye) and PGN import */ \
    X(not_object, bad_request, 400)                    \
    X(missing, bad_request, 400)                       \
    X(not_text, bad_request, 400)                      \
    X(too_long, bad_request, 400)                      \
    X(bad_utf8, bad_request, 400)                      \
    X(not_boolean, bad_request, 400)                   \
    X(not_number, bad_request, 400)                    \
    X(out_of_range, bad_request, 400)                  \
    X(bad_fen, bad_request, 400)                       \
    X(bad_stipulation, bad_request, 400)               \
    X(stipulation_too_long, bad_request, 400)          \
    X(bad_popeye, bad_request, 400)                    \
    /* a game of an imported PGN (in its answer) */    \
    X(pgn_move_unreadable, bad_request, 400)           \
    X(pgn_move_illegal, bad_request, 400)              \
    X(pgn_move_ambiguous, bad_request, 400)            \
    X(pgn_null_move, bad_request, 400)                 \
    X(pgn_nag_unreadable, bad_request, 400)            \
    X(pgn_variant_unknown, bad_request, 400)           \
    X(pgn_fen_invalid, bad_request, 400)               \
    X(pgn_syntax, bad_request, 400)                    \
    /* accounts (docs/ACCOUNTS.md) */                  \
    X(body_not_object, bad_request, 400)               \
    X(not_string, bad_request, 400)                    \
    X(username_length, bad_request, 400)               \
    X(username_chars, bad_request, 400)                \
    X(username_reserved, bad_request, 400)             \
    X(password_short, bad_request, 400)                \
    X(password_long, bad_request, 400)                 \
    X(password_utf8, bad_request, 400)                 \
    X(password_common, bad_request, 400)               \
    X(password_is_username, bad_request, 400)          \
    X(game_id_invalid, bad_request, 400)               \
    X(speed_unknown, bad_request, 400)                 \
    X(result_unknown, bad_request, 400)                \
    X(limit_invalid, bad_request, 400)                 \
    /* WebSocket messages */                           \
    X(message_binary, bad_message, 400)                \
    X(token_invalid, bad_message, 400)                 \
    X(hello_token_changed, bad_message, 400)           \
    X(too_many_watched, bad_message, 400)              \
    X(text_empty, bad_message, 400)                    \
    X(text_too_long, bad_message, 400)                 \
    X(text_control_character, bad_message, 400)        \
    X(text_combining_marks, bad_message, 400)          \
    X(text_invalid_utf8, bad_message, 400)             \
    X(room_unknown, bad_message, 400)                  \
    X(chat_needs_hello, bad_message, 400)              \
    X(pool_unknown, bad_message, 400)                  \
    X(pool_hello_first, bad_message, 400)              \
    X(type_unknown, unknown_type, 400)                 \
    /* playing a game */                               \
    X(not_your_turn, not_your_turn, 400)               \
    X(move_too_long, illegal_move, 400)                \
    X(ply_mismatch, stale, 400)                        \
    /* who you are */                                  \
    X(invalid_credentials, unauthorized, 401)          \
    X(not_logged_in, unauthorized, 401)                \
    X(session_expired, unauthorized, 401)              \
    X(token_missing, forbidden, 403)                   \
    X(not_seek_owner, forbidden, 403)                  \
    X(not_your_problem, forbidden, 403)                \
    X(cross_origin, forbidden, 403)                    \
    X(origin_not_allowed, forbidden, 403)              \
    X(cross_site, forbidden, 403)                      \
    X(wrong_password, forbidden, 403)                  \
    X(live_game_analysis, forbidden, 403)              \
    X(review_private, forbidden, 403)                  \
    X(rated_needs_account, forbidden, 403)             \
    X(rating_range_needs_account, forbidden, 403)      \
    X(rating_out_of_range, forbidden, 403)             \
    X(tournament_needs_account, forbidden, 403)        \
    X(not_your_seat, not_your_seat, 403)               \
    /* what does not exist */                          \
    X(no_endpoint, not_found, 404)                     \
    X(file_not_found, not_found, 404)                  \
    X(game_not_found, not_found, 404)                  \
    X(seek_not_found, not_found, 404)                  \
    X(review_not_found, not_found, 404)                \
    X(problem_not_found, not_found, 404)               \
    X(puzzle_not_found, not_found, 404)                \
    X(chat_line_not_found, not_found, 404)             \
    X(user_not_found, not_found, 404)                  \
    X(tournament_not_found, not_found, 404)            \
    /* too late, or not now */                         \
    X(seek_taken, conflict, 409)                       \
    X(own_seek, conflict, 409)                         \
    X(too_many_seeks, conflict, 409)                   \
    X(username_taken, conflict, 409)                   \
    X(already_recorded, conflict, 409)                 \
    X(too_many_tournaments, conflict, 409)             \
    X(tournament_finished, conflict, 409)              \
    X(tournament_full, conflict, 409)                  \
    X(tournament_not_joined, conflict, 409)            \
    X(tournament_entries_closed, conflict, 409)        \
    X(game_over, game_over, 409)                       \
    X(abort_too_late, not_allowed, 409)                \
    X(abort_swiss, not_allowed, 409)                   \
    X(no_draw_offer, not_allowed, 409)                 \
    X(draw_offer_pending, not_allowed, 409)            \
    X(draw_offer_too_soon, not_allowed, 409)           \
    X(computer_declines_draw, not_allowed, 409)        \
    X(game_not_over, not_allowed, 409)                 \
    X(rematch_exists, not_allowed, 409)                \
    X(no_rematch_offer, not_allowed, 409)              \
    X(rematch_offer_pending, not_allowed, 409)         \
    X(claim_not_available, not_allowed, 409)           \
    X(claim_too_early, not_allowed, 409)               \
    X(takeback_rated, not_allowed, 409)                \
    X(takeback_computer_level, not_allowed, 409)       \
    X(no_takeback_move, not_allowed, 409)              \
    X(takeback_offer_pending, not_allowed, 409)        \
    X(no_takeback_offer, not_allowed, 409)             \
    X(takeback_declined, not_allowed, 409)             \
    X(berserk_not_tournament, not_allowed, 409)        \
    X(berserk_too_late, not_allowed, 409)              \
    X(chat_disabled, not_allowed, 409)                 \
    X(chat_not_joined, not_allowed, 409)               \
    /* too large */                                    \
    X(body_too_large, too_large, 413)                  \
    X(header_too_large, too_large, 413)                \
    X(message_too_large, too_large, 413)               \
    /* too many, too fast (429: with Retry-After) */   \
    X(rate_limited, rate_limited, 429)                 \
    X(eval_rate, rate_limited, 429)                    \
    X(eval_pending, rate_limited, 429)                 \
    X(solve_pending, rate_limited, 429)                \
    X(review_pending, rate_limited, 429)               \
    X(analysis_streams, rate_limited, 429)             \
    X(too_many_seeks_address, rate_limited, 429)       \
    X(too_many_engine_games, rate_limited, 429)        \
    X(too_many_own_engine_games, rate_limited, 429)    \
    X(chat_rate_limited, rate_limited, 429)            \
    X(report_rate_limited, rate_limited, 429)          \
    X(too_many_attempts, rate_limited, 429)            \
    X(too_many_signups, rate_limited, 429)             \
    X(too_many_requests, rate_limited, 429)            \
    /* busy: try again */                              \
    X(engine_busy, unavailable, 503)                   \
    X(storage_busy, unavailable, 503)                  \
    X(room_busy, unavailable, 503)                     \
    X(accounts_busy, unavailable, 503)                 \
    X(accounts_stopping, unavailable, 503)             \
    X(storage_failed, unavailable, 503)                \
    X(puzzles_missing, unavailable, 503)               \
    X(node_unavailable, unavailable, 503)              \
    /* a bug */                                        \
    X(internal, internal, 500)

enum class Code {
#define ECHECS_X(name) name,
    ECHECS_API_CODES(ECHECS_X)
#undef ECHECS_X
};

enum class Reason {
#define ECHECS_X(name, code, status) name,
    ECHECS_API_REASONS(ECHECS_X)
#undef ECHECS_X
};

struct CodeInfo {
    Code code;
    std::string_view name;
};

inline constexpr CodeInfo CODES[] = {
#define ECHECS_X(name) {Code::name, #name},
    ECHECS_API_CODES(ECHECS_X)
#undef ECHECS_X
};

struct ReasonInfo {
    Reason reason;
    std::string_view name;
    Code code;   // the general code sent with it
    int status;  // its HTTP status
};

inline constexpr ReasonInfo REASONS[] = {
#define ECHECS_X(name, code, status) {Reason::name, #name, Code::code, status},
    ECHECS_API_REASONS(ECHECS_X)
#undef ECHECS_X
};

constexpr const ReasonInfo& reason_info(Reason r) { return REASONS[int(r)]; }
constexpr std::string_view reason_name(Reason r) { return reason_info(r).name; }
constexpr std::string_view code_name(Code c) { return CODES[int(c)].name; }
constexpr int reason_status(Reason r) { return reason_info(r).status; }

constexpr std::optional<Reason> reason_from_name(std::string_view s) {
    for (const ReasonInfo& r : REASONS)
        if (r.name == s) return r.reason;
    return std::nullopt;
}

static_assert(
    [] {
        for (int i = 0; i < int(std::size(REASONS)); ++i)
            for (int j = 0; j < i; ++j)
                if (REASONS[i].name == REASONS[j].name) return false;
        return true;
    }(),
    "a reason appears twice in ECHECS_API_REASONS");

struct ApiError : std::exception {
    // The code is the reason's (the table's).
    ApiError(Reason r, std::string message_, std::string field_ = "", nlohmann::json params_ = nlohmann::json::object())
        : ApiError(reason_info(r).code, r, std::move(message_), std::move(field_), std::move(params_)) {}
    // Another code, where one reason is sent in two contexts (a field of a
    // WebSocket message is a `bad_message`, of an HTTP body a `bad_request`;
    // a game's illegal move an `illegal_move`). The status is still the
    // reason's.
    ApiError(Code c, Reason r, std::string message_, std::string field_ = "",
             nlohmann::json params_ = nlohmann::json::object())
        : which(r),
          code(code_name(c)),
          reason(reason_name(r)),
          message(std::move(message_)),
          field(std::move(field_)),
          params(params_.is_object() ? std::move(params_) : nlohmann::json::object()) {}
    const char* what() const noexcept override { return message.c_str(); }
    int status() const { return reason_status(which); }  // the HTTP status: the table's

    Reason which;
    std::string code;
    std::string reason;
    std::string message;  // English, for people reading logs or raw answers
    std::string field;    // "" when the error is not about one input field
    nlohmann::json params;
};

// The HTTP status: the reason's, from the table.
inline int http_status(const ApiError& e) { return e.status(); }

// The Retry-After header in seconds: params.retry_after when the error says
// when, else 1 for a 429; 0: no header.
inline std::int64_t retry_after_seconds(const ApiError& e) {
    if (auto it = e.params.find("retry_after"); it != e.params.end() && it->is_number_integer())
        return std::max<std::int64_t>(1, it->get<std::int64_t>());
    return http_status(e) == 429 ? 1 : 0;
}

// {"error": {"code", "message", "reason", "field", "params"}}: the one body
// of an HTTP error.
inline nlohmann::json error_body(const ApiError& e) {
    nlohmann::json j = {{"code", e.code},
                        {"message", e.message},
                        {"reason", e.reason},
                        {"field", e.field.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.field)},
                        {"params", e.params}};
    // The analysis board's bad move, as it was reported before `params`.
    if (auto it = e.params.find("index"); it != e.params.end()) j["index"] = *it;
    return {{"error", std::move(j)}};
}

// The error for an exception that is not an ApiError (a bug, or a library
// refusing something): `internal`, with the exception's text.
inline ApiError internal_error(const std::exception& e) {
    return ApiError(Reason::internal, std::string("internal error: ") + e.what());
}

}  // namespace echecs::server
