#include "server/accounts/accounts.h"

#include <sodium.h>

#include <array>
#include <chrono>
#include <cmath>
#include <map>

#include "core/vocabulary.h"
#include "server/accounts/puzzle_ratings.h"
#include "server/accounts/speed.h"

namespace echecs::server::accounts {

using nlohmann::json;

namespace {

constexpr std::int64_t DAY_MS = 86'400'000;

std::int64_t system_ms() {
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

AccountError invalid_credentials() { return unauthorized(Reason::invalid_credentials, "wrong user name or password"); }

void check_credentials_fields(const std::string& username, const std::string& password) {
    if (auto why = check_username(username)) throw bad_field("username", *why, "user name not accepted");
    if (auto why = check_password(password, username)) throw bad_field("password", *why, "password not accepted");
}

std::string result_for(Outcome o, bool white) {
    if (o == Outcome::Draw) return "draw";
    return (o == Outcome::WhiteWins) == white ? "win" : "loss";
}

int shown(double rating) { return int(std::lround(rating)); }

}  // namespace

bool known_variant(const std::string& v) {
    // Exactly the API names (the rating tables' keys), not the aliases the
    // name reader also accepts.
    for (const VariantInfo& info : VARIANTS)
        if (v == info.name) return true;
    return false;
}

Accounts::Accounts(std::unique_ptr<AccountStore> store, AccountsOptions options, Clock clock)
    : store_(std::move(store)),
      options_(options),
      clock_(clock ? std::move(clock) : Clock(system_ms)),
      login_ip_(options.login_per_ip, options.login_ip_window_ms),
      login_account_(options.login_failures_per_account, options.login_account_window_ms),
      login_device_(options.login_failures_per_device, options.login_account_window_ms),
      signup_ip_(options.signups_per_ip, options.signup_window_ms) {}

SessionInfo Accounts::open_session(const AccountRecord& a) {
    SessionInfo s{a.id, a.name, new_secret(), now() + options_.session_ms, ""};
    store_->add_session({secret_hash(s.secret), a.id, now(), s.expires_at});
    return s;
}

void PasswordWork::run() {
    if (!stored.empty()) verified = verify_password(password, stored);
    if (!new_password.empty())
        new_hash = hash_password(new_password, cost);
    else if (verified && rehash)
        new_hash = hash_password(password, cost);
}

SignUpPlan Accounts::sign_up_prepare(const std::string& username, const std::string& password, const std::string& ip) {
    check_credentials_fields(username, password);
    if (auto wait = signup_ip_.blocked(ip, now()))
        throw rate_limited(Reason::too_many_signups, "too many accounts created from this address", *wait);
    if (auto existing = store_->find_account(username))
        throw ApiError(Reason::username_taken, "this user name is taken", "username");
    SignUpPlan p{username, ip, {}};
    p.work.new_password = password;
    p.work.cost = options_.cost;
    return p;
}

void Accounts::sign_up_admit(const SignUpPlan& p) {
    if (auto wait = signup_ip_.blocked(p.ip, now()))
        throw rate_limited(Reason::too_many_signups, "too many accounts created from this address", *wait);
    signup_ip_.add(p.ip, now());
}

SessionInfo Accounts::sign_up_finish(const SignUpPlan& p, const std::string& token) {
    AccountRecord a{0, p.username, p.work.new_hash, now(), false};
    SessionInfo s{0, p.username, new_secret(), now() + options_.session_ms, ""};
    const SessionRecord first{secret_hash(s.secret), 0, now(), s.expires_at};
    const auto id = store_->create_account(a, first, token.empty() ? "" : secret_hash(token));
    if (!id) throw ApiError(Reason::username_taken, "this user name is taken", "username");
    s.account_id = a.id = *id;
    s.device = new_device(a);
    return s;
}

SessionInfo Accounts::sign_up(const std::string& username, const std::string& password, const std::string& ip,
                              const std::string& token) {
    SignUpPlan p = sign_up_prepare(username, password, ip);
    sign_up_admit(p);
    p.work.run();
    return sign_up_finish(p, token);
}

// A device cookie: "<name key>.<issued, epoch ms>.<id>.<mac>", the mac keyed
// by the account's password hash. Names hold no '.', and a name is never
// given to another account (a deleted one's stays taken).
std::string Accounts::new_device(const AccountRecord& a) {
    if (a.password_hash.empty()) return "";
    const std::string payload = canonical_username(a.name) + '.' + std::to_string(now()) + '.' + random_id();
    return payload + '.' + keyed_mac(a.password_hash, payload);
}

std::string Accounts::device_name(const std::string& device) {
    const std::size_t dot = device.find('.');
    return dot == std::string::npos ? "" : device.substr(0, dot);
}

std::string Accounts::valid_device(const std::string& device, const AccountRecord& a) {
    if (device.empty() || a.deleted || a.password_hash.empty()) return "";
    const std::size_t d1 = device.find('.'), d2 = device.find('.', d1 + 1), d3 = device.rfind('.');
    if (d1 == std::string::npos || d2 == std::string::npos || d3 <= d2) return "";
    if (device.substr(0, d1) != canonical_username(a.name)) return "";
    const std::string issued = device.substr(d1 + 1, d2 - d1 - 1);
    if (issued.empty() || issued.size() > 15 || issued.find_first_not_of("0123456789") != std::string::npos) return "";
    if (std::stoll(issued) + options_.device_ms <= now()) return "";  // expired
    const std::string payload = device.substr(0, d3);
    // Both macs are public-length base64url: comparing them leaks nothing
    // useful, but sodium_memcmp costs nothing either.
    const std::string mac = keyed_mac(a.password_hash, payload), given = device.substr(d3 + 1);
    if (given.size() != mac.size() || sodium_memcmp(given.data(), mac.data(), mac.size()) != 0) return "";
    return device.substr(d2 + 1, d3 - d2 - 1);
}

LoginPlan Accounts::log_in_prepare(const std::string& username, const std::string& password, const std::string& ip,
                                   const std::string& device) {
    if (username.empty() || username.size() > 64) throw invalid_credentials();
    LoginPlan p;
    p.username = username;
    p.name_key = canonical_username(username);
    p.ip = ip;
    p.account = store_->find_account(username);
    if (p.account && !p.account->deleted) {
        p.device_id = valid_device(device, *p.account);
        // A device cookie with too many failures lately is trusted no more.
        p.trusted = !p.device_id.empty() && !login_device_.blocked(p.device_id, now());
    }
    log_in_admit_check(p);
    p.work.password = password;
    p.work.cost = options_.cost;
    if (p.account && !p.account->deleted) {
        p.work.stored = p.account->password_hash;
        p.work.rehash = needs_rehash(p.work.stored, options_.cost);
    } else {
        p.work.stored = dummy_hash(options_.cost);  // an unknown name costs what a known one does
    }
    return p;
}

void Accounts::log_in_admit_check(const LoginPlan& p) {
    // A trusted device is exempt from the limits per address and per
    // account and address (nobody else's failures lock it out); its own
    // failures make it untrusted (login_device_, prepare).
    if (p.trusted) return;
    if (auto wait = login_ip_.blocked(p.ip, now()))
        throw rate_limited(Reason::too_many_attempts, "too many log-in attempts from this address", *wait);
    if (auto wait = login_account_.blocked(p.name_key + '\n' + p.ip, now()))
        throw rate_limited(Reason::too_many_attempts,
                           "too many failed log-in attempts for this account from this address", *wait);
}

void Accounts::log_in_admit(const LoginPlan& p) {
    log_in_admit_check(p);
    if (!p.trusted) login_ip_.add(p.ip, now());
}

SessionInfo Accounts::log_in_finish(const LoginPlan& p, const std::string& token) {
    // Failures count per account and address: guesses from anywhere cannot
    // lock the owner out of their account, and each address guessing at an
    // account is stopped after a few (all its log-ins are limited too).
    const std::string key = p.name_key + '\n' + p.ip;
    if (!p.work.verified || !p.account || p.account->deleted) {
        if (p.trusted)
            login_device_.add(p.device_id, now());
        else
            login_account_.add(key, now());
        throw invalid_credentials();
    }
    // The account as it is now: deleted or given a new password while the
    // hash ran, the old password opens nothing.
    auto a = store_->account_by_id(p.account->id);
    if (!a || a->deleted || a->password_hash != p.account->password_hash) throw invalid_credentials();
    if (!p.work.new_hash.empty()) {
        store_->rehash_password(a->id, a->password_hash, p.work.new_hash);
        a->password_hash = p.work.new_hash;
    }
    login_account_.clear(key);
    if (p.trusted) login_device_.clear(p.device_id);
    if (!token.empty()) store_->link_token(secret_hash(token), a->id, now());
    SessionInfo s = open_session(*a);
    s.device = new_device(*a);
    return s;
}

SessionInfo Accounts::log_in(const std::string& username, const std::string& password, const std::string& ip,
                             const std::string& token, const std::string& device) {
    LoginPlan p = log_in_prepare(username, password, ip, device);
    log_in_admit(p);
    p.work.run();
    return log_in_finish(p, token);
}

Me Accounts::who_am_i(const std::string& secret) {
    if (secret.empty()) throw unauthorized(Reason::not_logged_in, "not logged in");
    const std::string hash = secret_hash(secret);
    const auto s = store_->find_session(hash);
    if (!s) throw unauthorized(Reason::not_logged_in, "not logged in (unknown or revoked session)");
    if (s->expires_at <= now()) {
        store_->delete_session(hash);
        throw unauthorized(Reason::session_expired, "the session has expired: log in again");
    }
    const auto a = store_->account_by_id(s->account_id);
    if (!a || a->deleted) throw unauthorized(Reason::not_logged_in, "not logged in");
    return {a->id, a->name, a->created_at, hash};
}

void Accounts::log_out(const std::string& secret, const std::string& token) {
    if (!secret.empty()) store_->delete_session(secret_hash(secret));
    if (!token.empty()) store_->unlink_token(secret_hash(token));
}

std::int64_t Accounts::log_out_everywhere(const std::string& secret) {
    const Me me = who_am_i(secret);
    store_->delete_sessions(me.account_id);
    store_->unlink_tokens(me.account_id);
    return me.account_id;
}

OwnerPlan Accounts::owner_prepare(const std::string& secret, const std::string& password, const char* field) {
    const Me me = who_am_i(secret);
    OwnerPlan p{me.account_id, me.username, me.session_hash, field, {}};
    owner_admit(p);
    const auto a = store_->account_by_id(me.account_id);
    p.work.password = password;
    // No stored hash (gone meanwhile): verified stays false.
    p.work.stored = a ? a->password_hash : "";
    p.work.cost = options_.cost;
    return p;
}

void Accounts::owner_admit(const OwnerPlan& p) {
    // The session's owner: failures count for the account (any address).
    if (auto wait = login_account_.blocked(canonical_username(p.username), now()))
        throw rate_limited(Reason::too_many_attempts, "too many failed password checks for this account", *wait);
}

void Accounts::owner_check(const OwnerPlan& p) {
    if (!p.work.verified) {
        login_account_.add(canonical_username(p.username), now());
        throw ApiError(Reason::wrong_password, "the current password is wrong", p.field);
    }
}

OwnerPlan Accounts::change_password_prepare(const std::string& secret, const std::string& old_password,
                                            const std::string& new_password) {
    OwnerPlan p = owner_prepare(secret, old_password, "old_password");
    if (auto why = check_password(new_password, p.username))
        throw bad_field("new_password", *why, "password not accepted");
    p.work.new_password = new_password;
    return p;
}

void Accounts::change_password_finish(const OwnerPlan& p) {
    owner_check(p);
    store_->set_password(p.account_id, p.work.new_hash, p.session_hash);
}

OwnerPlan Accounts::delete_account_prepare(const std::string& secret, const std::string& password) {
    return owner_prepare(secret, password, "password");
}

void Accounts::delete_account_finish(const OwnerPlan& p) {
    owner_check(p);
    store_->delete_account(p.account_id);
}

void Accounts::change_password(const std::string& secret, const std::string& old_password,
                               const std::string& new_password) {
    OwnerPlan p = change_password_prepare(secret, old_password, new_password);
    p.work.run();
    change_password_finish(p);
}

void Accounts::delete_account(const std::string& secret, const std::string& password) {
    OwnerPlan p = delete_account_prepare(secret, password);
    p.work.run();
    delete_account_finish(p);
}

std::optional<std::int64_t> Accounts::token_account(const std::string& token) {
    if (token.empty()) return std::nullopt;
    return store_->token_account(secret_hash(token));
}

std::optional<SeatAccount> Accounts::seat_account(const std::string& secret, const std::string& token,
                                                  const std::string& variant, const std::string& speed) {
    SeatAccount seat;
    if (!secret.empty()) {
        try {
            const Me me = who_am_i(secret);
            seat.account_id = me.account_id;
            seat.username = me.username;
        } catch (const AccountError&) {
            return std::nullopt;  // a stale cookie: anonymous, never the token's account
        }
    } else if (auto id = token_account(token)) {
        const auto a = store_->account_by_id(*id);
        if (!a || a->deleted) return std::nullopt;
        seat.account_id = a->id;
        seat.username = a->name;
    } else {
        return std::nullopt;
    }
    if (known_variant(variant) && speed_from_name(speed)) {
        Glicko g = new_rating(options_.glicko);
        if (auto r = store_->rating(seat.account_id, variant, speed)) g = {r->rating, r->deviation, r->volatility};
        seat.rating = shown(g.rating);
        seat.provisional = provisional(g, options_.glicko);
    }
    return seat;
}

std::optional<std::string> Accounts::display_name(std::int64_t account_id) {
    const auto a = store_->account_by_id(account_id);
    if (!a) return std::nullopt;
    return a->deleted ? std::string("deleted") : a->name;
}

json Accounts::profile(const std::string& username) {
    const auto a = store_->find_account(username);
    if (!a || a->deleted) throw ApiError(Reason::user_not_found, "no such user", "username");
    json ratings = json::object();
    for (const VariantInfo& info : VARIANTS)
        for (std::string_view s : SPEED_NAMES) {
            const std::string v(info.name);
            const Glicko g = new_rating(options_.glicko);
            ratings[v][std::string(s)] = {
                {"rating", shown(g.rating)}, {"rd", shown(g.deviation)}, {"games", 0}, {"provisional", true}};
        }
    for (const RatingRecord& r : store_->ratings(a->id))
        ratings[r.variant][r.speed] = {
            {"rating", shown(r.rating)},
            {"rd", shown(r.deviation)},
            {"games", r.games},
            {"provisional", provisional({r.rating, r.deviation, r.volatility}, options_.glicko)}};
    json history = json::object();
    for (const HistoryPoint& h : store_->history(a->id, options_.history_points))
        history[h.variant][h.speed].push_back({{"at", h.at}, {"rating", shown(h.rating)}, {"game", h.game_id}});
    const GameCounts c = store_->counts(a->id);
    return {{"username", a->name},
            {"created_at", a->created_at},
            {"ratings", ratings},
            {"history", history},
            {"puzzle_ratings", puzzle_ratings_json(*store_, a->id, options_.glicko)},
            {"counts", {{"all", c.all}, {"rated", c.rated}, {"win", c.win}, {"loss", c.loss}, {"draw", c.draw}}}};
}

json Accounts::user_games(const std::string& username, const GameQuery& filter) {
    const auto a = store_->find_account(username);
    if (!a || a->deleted) throw ApiError(Reason::user_not_found, "no such user", "username");
    GameQuery q = filter;
    q.account_id = a->id;
    json games = json::array();
    std::map<std::int64_t, std::string> names;
    const auto rows = store_->games(q);
    for (const PlayerGame& g : rows) {
        std::string opponent = g.opponent_name;
        if (g.opponent_id) {
            auto [it, fresh] = names.try_emplace(g.opponent_id);
            if (fresh) it->second = display_name(g.opponent_id).value_or("deleted");
            opponent = it->second;
        }
        json j = {{"id", g.game_id},        {"color", g.color},     {"variant", g.variant},
                  {"speed", g.speed},       {"rated", g.rated},     {"result", g.result},
                  {"ended_at", g.ended_at}, {"opponent", opponent}, {"opponent_has_account", g.opponent_id != 0}};
        if (g.rated) {
            j["rating_before"] = shown(g.rating_before);
            j["rating_after"] = shown(g.rating_after);
            j["rating_diff"] = shown(g.rating_after) - shown(g.rating_before);
        }
        games.push_back(std::move(j));
    }
    const bool full = int(rows.size()) == q.limit;
    return {{"games", games}, {"next", full && !rows.empty() ? json(rows.back().game_id) : json(nullptr)}};
}

json Accounts::leaderboard(const std::string& variant, const std::string& speed) {
    if (!known_variant(variant))
        throw bad_field("variant", Reason::variant_unknown, "unknown game: chess, alice or avalanche");
    if (!speed_from_name(speed))
        throw bad_field("speed", Reason::speed_unknown,
                        "unknown speed: bullet, blitz, rapid, classical or correspondence");
    json players = json::array();
    int rank = 0;
    for (const LeaderboardRow& r :
         store_->leaderboard(variant, speed, now() - std::int64_t(options_.leaderboard_active_days) * DAY_MS,
                             options_.glicko.provisional_deviation, options_.leaderboard_size))
        players.push_back({{"rank", ++rank},
                           {"username", r.name},
                           {"rating", shown(r.rating)},
                           {"rd", shown(r.deviation)},
                           {"games", r.games}});
    return {{"variant", variant}, {"speed", speed}, {"players", players}};
}

std::optional<RatingChanges> Accounts::record_result(const GameEnd& g) {
    if (g.game_id.empty() || g.game_id.size() > 64)
        throw bad_field("game_id", Reason::game_id_invalid, "a game id of 1 to 64 characters");
    if (!known_variant(g.variant)) throw bad_field("variant", Reason::variant_unknown, "unknown game");
    if (!g.speed.empty() && !speed_from_name(g.speed)) throw bad_field("speed", Reason::speed_unknown, "unknown speed");
    auto live = [&](std::int64_t id) {
        if (!id) return false;
        const auto a = store_->account_by_id(id);
        return a && !a->deleted;
    };
    const bool white_live = live(g.white_account), black_live = live(g.black_account);
    // A player who deleted the account during the game does not void the
    // opponent's result: the living side is rated against the deleted
    // account's last rating, which stays as it was.
    auto exists = [&](std::int64_t id) { return id && store_->account_by_id(id).has_value(); };
    const std::int64_t t = now();
    // Against farming with the same opponent: past a day's allowance, the
    // games of a pair count as casual.
    const bool rated = g.rated && !g.speed.empty() && (white_live || black_live) && exists(g.white_account) &&
                       exists(g.black_account) && g.white_account != g.black_account &&
                       store_->rated_games_between(g.white_account, g.black_account, t - DAY_MS) <
                           options_.rated_games_per_pair_per_day;
    const bool side_live[2] = {white_live, black_live};

    ResultWrite w;
    RatingChanges changes;
    auto game_row = [&](bool white) {
        PlayerGame p;
        p.game_id = g.game_id;
        p.account_id = white ? g.white_account : g.black_account;
        p.color = white ? "white" : "black";
        p.variant = g.variant;
        p.speed = g.speed.empty() ? "unlimited" : g.speed;
        p.rated = rated;
        p.result = result_for(g.outcome, white);
        p.ended_at = t;
        p.opponent_id = white ? g.black_account : g.white_account;
        p.opponent_name = white ? g.black_name : g.white_name;
        p.is_private = g.is_private;
        return p;
    };
    if (rated) {
        auto current = [&](std::int64_t id) {
            if (auto r = store_->rating(id, g.variant, g.speed)) return *r;
            const Glicko n = new_rating(options_.glicko);
            return RatingRecord{id, g.variant, g.speed, n.rating, n.deviation, n.volatility, 0, 0};
        };
        const RatingRecord before[2] = {current(g.white_account), current(g.black_account)};
        const double score_white = g.outcome == Outcome::WhiteWins ? 1 : g.outcome == Outcome::Draw ? 0.5 : 0;
        for (int side = 0; side < 2; ++side) {
            const RatingRecord& me = before[side];
            const RatingRecord& them = before[1 - side];
            if (!side_live[side]) {
                RatingChange& c = side == 0 ? changes.white : changes.black;
                c = {me.account_id, me.rating, me.rating,
                     me.deviation,  0,         provisional({me.rating, me.deviation, me.volatility}, options_.glicko)};
                continue;
            }
            const double days = me.games ? double(t - me.last_game_at) / double(DAY_MS) : 0.0;
            const Glicko after = rate_game({me.rating, me.deviation, me.volatility}, days,
                                           {them.rating, them.deviation, them.volatility},
                                           side == 0 ? score_white : 1 - score_white, options_.glicko);
            RatingRecord r = me;
            r.rating = after.rating, r.deviation = after.deviation, r.volatility = after.volatility;
            r.games += 1, r.last_game_at = t;
            w.ratings.push_back(r);
            w.history.push_back({g.variant, g.speed, g.game_id, t, after.rating, after.deviation});
            w.history_accounts.push_back(me.account_id);
            PlayerGame p = game_row(side == 0);
            p.rating_before = me.rating, p.rating_after = after.rating;
            w.games.push_back(p);
            RatingChange& c = side == 0 ? changes.white : changes.black;
            c = {me.account_id,
                 me.rating,
                 after.rating,
                 after.deviation,
                 shown(after.rating) - shown(me.rating),
                 provisional(after, options_.glicko)};
        }
    } else {
        if (white_live) w.games.push_back(game_row(true));
        if (black_live && g.black_account != g.white_account) w.games.push_back(game_row(false));
    }
    if (w.games.empty()) return std::nullopt;
    if (!store_->write_result(w))
        throw ApiError(Reason::already_recorded, "this game's result is already recorded", "game_id");
    if (!rated) return std::nullopt;
    return changes;
}

std::optional<RatingChanges> Accounts::recorded_changes(const std::string& game_id) {
    const auto rows = store_->game_rows(game_id);
    if (rows.size() != 2 || !rows[0].rated || !rows[1].rated) return std::nullopt;
    RatingChanges changes;
    for (const PlayerGame& p : rows) {
        RatingChange& c = p.color == "white" ? changes.white : changes.black;
        c.account_id = p.account_id;
        c.before = p.rating_before, c.after = p.rating_after;
        c.diff = shown(p.rating_after) - shown(p.rating_before);
    }
    return changes;
}

int Accounts::claim_games(std::int64_t account_id, const std::vector<GameEnd>& games) {
    int added = 0;
    for (GameEnd g : games) {
        if (!known_variant(g.variant) || g.game_id.empty() || g.game_id.size() > 64) continue;
        const bool white = g.white_account == account_id;
        if (!white && g.black_account != account_id) continue;
        if (store_->has_game(g.game_id, account_id)) continue;
        (white ? g.black_account : g.white_account) = 0;  // claiming never touches the other seat
        g.rated = false;
        try {
            record_result(g);
            ++added;
        } catch (const AccountError&) {
            // already recorded meanwhile, or not a live account: nothing to claim
        }
    }
    return added;
}

int Accounts::sweep() { return store_->delete_expired_sessions(now()); }

}  // namespace echecs::server::accounts
