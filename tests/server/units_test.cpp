// The server's parts without sockets: text and errors, input fields, the
// typed client messages, the router, origins, rate limits and the engine
// scheduler.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "server/api/errors.h"
#include "server/api/input.h"
#include "server/api/router.h"
#include "server/app/options.h"
#include "server/net/http_types.h"
#include "server/net/limits.h"
#include "server/protocol/messages.h"
#include "server/protocol/text.h"
#include "server/storage/workers.h"
#include "server/work/scheduler.h"

using namespace echecs;
using namespace echecs::server;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

const std::string E_ACUTE_BYTE = "\xC3";  // the first byte of "é" alone: invalid UTF-8

TEST(Text, InvalidUtf8IsReplacedNeverThrown) {
    EXPECT_TRUE(valid_utf8("Zoé ♘ 𝄞"));
    for (std::string bad : {E_ACUTE_BYTE, std::string("\xff"), std::string("\xed\xa0\x80"),  // a surrogate
                            std::string("\xc0\xaf"), std::string("\xf4\x90\x80\x80")}) {     // overlong, > U+10FFFF
        EXPECT_FALSE(valid_utf8(bad));
        const std::string fixed = to_valid_utf8("a" + bad + "b");
        EXPECT_TRUE(valid_utf8(fixed));
        EXPECT_EQ(fixed.front(), 'a');
        EXPECT_EQ(fixed.back(), 'b');
        EXPECT_NO_THROW(dump(json{{"message", "bad: " + bad}}));
        EXPECT_TRUE(valid_utf8(dump(json{{"message", "bad: " + bad}})));
        EXPECT_TRUE(valid_utf8(quote(bad)));
    }
    // nlohmann's own dump() throws on the same input: the reason for dump().
    EXPECT_THROW(json(std::string(E_ACUTE_BYTE)).dump(), json::exception);
}

TEST(Text, JsonDepthIsCountedOutsideStrings) {
    EXPECT_EQ(json_depth("{}"), 1);
    EXPECT_EQ(json_depth("[[1,[2]]]"), 3);
    EXPECT_EQ(json_depth(R"({"a":"[[[[[[","b":"\"[[["})"), 1);
    EXPECT_EQ(json_depth(std::string(10000, '[')), 10000);
    EXPECT_EQ(ascii_excerpt("a\xff\nb", 10), "a??b");
}

TEST(Errors, StatusIsDecidedByCodeAndReasonInOnePlace) {
    EXPECT_EQ(http_status(ApiError(Reason::game_not_found, "")), 404);
    EXPECT_EQ(http_status(ApiError(Reason::live_game_analysis, "")), 403);
    EXPECT_EQ(http_status(ApiError(Reason::seek_taken, "")), 409);
    EXPECT_EQ(http_status(ApiError(Reason::body_too_large, "")), 413);
    EXPECT_EQ(http_status(ApiError(Reason::eval_rate, "")), 429);
    EXPECT_EQ(http_status(ApiError(Reason::engine_busy, "")), 503);
    EXPECT_EQ(http_status(ApiError(Reason::internal, "")), 500);
    EXPECT_EQ(http_status(ApiError(Reason::content_type, "")), 415);
    EXPECT_EQ(http_status(ApiError(Reason::method_not_allowed, "")), 405);
    EXPECT_EQ(http_status(ApiError(Reason::time_both_zero, "")), 400);
    json body = error_body(
        ApiError(Reason::number_range, "time.minutes must be...", "time.minutes", {{"min", 0}, {"max", 180}}));
    EXPECT_EQ(body["error"]["reason"], "number_range");
    EXPECT_EQ(body["error"]["field"], "time.minutes");
    EXPECT_EQ(body["error"]["params"]["max"], 180);
    EXPECT_EQ(error_body(ApiError(Reason::internal, "z"))["error"]["field"], nullptr);
    const std::string ws = ws_error_text(
        ApiError(Code::illegal_move, Reason::move_illegal, "illegal move " + E_ACUTE_BYTE), "Gm7Pq2Zx", "17");
    ASSERT_TRUE(valid_utf8(ws));
    json j = json::parse(ws);
    EXPECT_EQ(j["type"], "error");
    EXPECT_EQ(j["game"], "Gm7Pq2Zx");
    EXPECT_EQ(j["id"], 17);
}

ServerOptions defaults() { return ServerOptions{}; }

std::string reason_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ApiError& e) {
        return e.reason;
    }
    return "";
}

TEST(Input, Nicknames) {
    auto nick = [](const std::string& n) { return parse_nickname(json{{"nickname", n}}, "nickname"); };
    EXPECT_EQ(nick("  Zoé "), "Zoé");
    EXPECT_EQ(nick(""), "Anonymous");
    EXPECT_EQ(parse_nickname(json::object(), "nickname"), "Anonymous");
    EXPECT_EQ(nick("Ann Computerless"), "Ann Computerless");
    EXPECT_EQ(reason_of([&] { nick(std::string(21, 'n')); }), "nickname_too_long");
    EXPECT_EQ(nick(std::string(20, 'n')), std::string(20, 'n'));
    EXPECT_EQ(nick("éééééééééééééééééééé"), "éééééééééééééééééééé");  // characters, not bytes
    for (const char* reserved :
         {"Computer", "computer", "COMPUTER level 8", "Computer-8", "Ordinateur", "admin", "Stockfish", "server",
          // look-alikes (NFKC and UTS #39 skeletons): a Cyrillic А, full width, r and n for m, accents
          "\u0410dmin", "\uFF23\uFF2F\uFF2D\uFF30\uFF35\uFF34\uFF25\uFF32", "adrnin", "Stockfish9", "S\u0435rver",
          "Syst\u00E8me", "\u00C9checs", "A.d.m.i.n",
          // the names chat gives anonymous people
          "Guest-123", "guest_abc", "Guest", "Invit\u00E9-42"})
        EXPECT_EQ(reason_of([&] { nick(reserved); }), "nickname_reserved") << reserved;
    for (const char* fine : {"Guesthouse", "Admiral", "Zo\u00E9", "\u0410\u043D\u043D\u0430", "Rootless"})
        EXPECT_EQ(nick(fine), fine);
    for (const char* bidi : {"Ann\u202Ereverse", "\u2066x", "a\u200Fb", "a\u061Cb"})
        EXPECT_EQ(reason_of([&] { nick(bidi); }), "nickname_bidi") << bidi;
    for (const char* invisible : {"a\tb", "a\u200Bb", "\u00ADx", "a\u0085b", "\uFEFFx"})
        EXPECT_EQ(reason_of([&] { nick(invisible); }), "nickname_control") << invisible;
    EXPECT_EQ(reason_of([&] { parse_nickname(json{{"nickname", 5}}, "nickname"); }), "field_type");
}

TEST(Input, TimeControls) {
    const ServerOptions o = defaults();
    auto time = [&](json t) { return parse_time(json{{"time", t}}, false, o); };
    TimeControl tc = time({{"kind", "realtime"}, {"minutes", 5}, {"increment", 3}});
    EXPECT_EQ(tc.initial_ms, 300'000);
    EXPECT_EQ(tc.increment_ms, 3'000);
    EXPECT_EQ(time({{"kind", "realtime"}, {"minutes", 0}, {"increment", 2}}).initial_ms, 2'000);
    EXPECT_EQ(time({{"kind", "realtime"}, {"minutes", 0.1}, {"increment", 0}}).initial_ms, 6'000);  // the minimum
    EXPECT_EQ(reason_of([&] { time({{"kind", "realtime"}, {"minutes", 0}, {"increment", 0}}); }), "time_both_zero");
    EXPECT_EQ(reason_of([&] {
                  time({{"kind", "realtime"}, {"minutes", 0.00002}, {"increment", 0}});
              }),
              "time_below_minimum");  // 1 ms
    EXPECT_EQ(reason_of([&] {
                  time({{"kind", "realtime"}, {"minutes", 0.05}, {"increment", 0.5}});
              }),
              "time_below_minimum");
    try {
        time({{"kind", "realtime"}, {"minutes", 500}, {"increment", 0}});
        FAIL();
    } catch (const ApiError& e) {
        EXPECT_EQ(e.reason, "number_range");
        EXPECT_EQ(e.field, "time.minutes");
        EXPECT_EQ(e.params["max"], 180);
    }
    EXPECT_EQ(reason_of([&] { time({{"kind", "correspondence"}, {"days", 1.5}}); }), "number_whole");
    EXPECT_EQ(reason_of([&] { time({{"kind", "blitz"}}); }), "time_kind_unknown");
    EXPECT_EQ(reason_of([&] { parse_time(json::object(), false, o); }), "field_missing");
    EXPECT_EQ(parse_time(json::object(), true, o).kind, TimeControl::Unlimited);
}

TEST(Input, AnInvalidUtf8FenIsAnErrorThatCanBeWritten) {
    // The request that used to stop the server: one byte of "é" in the FEN.
    for (const std::string& fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN" + E_ACUTE_BYTE + " w KQkq - 0 1",
                                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk" + E_ACUTE_BYTE + " - 0 1"}) {
        json body = json::object();
        body["fen"] = fen;  // as nlohmann would hold it if it had been read
        try {
            replay_analysis(body);
            FAIL() << "accepted";
        } catch (const ApiError& e) {
            EXPECT_EQ(e.reason, "fen_invalid");
            EXPECT_EQ(e.field, "fen");
            EXPECT_TRUE(valid_utf8(e.message));
            EXPECT_TRUE(valid_utf8(dump(error_body(e))));
        }
    }
    // Sent as JSON text, the same byte is refused by the parser already.
    const std::string raw = std::string("{\"fen\":\"") + E_ACUTE_BYTE + "\"}";
    EXPECT_EQ(reason_of([&] { parse_body(raw); }), "json_invalid");
    EXPECT_EQ(reason_of([&] { parse_body(std::string(100, '[') + std::string(100, ']')); }), "json_too_deep");
    EXPECT_EQ(reason_of([&] { parse_body("[1]"); }), "json_not_object");
    try {
        replay_analysis(json{{"moves", {"e2e4", "e7e4"}}});
        FAIL();
    } catch (const ApiError& e) {
        EXPECT_EQ(e.reason, "move_illegal");
        EXPECT_EQ(e.field, "moves[1]");
        EXPECT_EQ(e.params["index"], 1);
    }
}

TEST(Messages, EveryTypeParsesIntoItsTypedMessage) {
    auto parse = [](const std::string& s) { return parse_client_message(s); };
    auto m = parse(R"({"type":"move","game":"Gm7Pq2Zx","move":"e2e4","ply":0,"id":17})");
    ASSERT_TRUE(m.message);
    auto& mv = std::get<msg::Move>(*m.message);
    EXPECT_EQ(mv.game, "Gm7Pq2Zx");
    EXPECT_EQ(mv.uci, "e2e4");
    EXPECT_EQ(mv.ply, 0);
    EXPECT_EQ(m.id_json, "17");
    EXPECT_EQ(std::get<msg::Hello>(*parse(R"({"type":"hello","token":"q3V9zLr0cXk2mB7tYw1eHn5a"})").message).token,
              "q3V9zLr0cXk2mB7tYw1eHn5a");
    EXPECT_EQ(std::get<msg::Ping>(*parse(R"({"type":"ping","t":{"x":1}})").message).t_json, R"({"x":1})");
    EXPECT_TRUE(std::holds_alternative<msg::LobbySubscribe>(*parse(R"({"type":"lobby_subscribe"})").message));
    EXPECT_TRUE(std::holds_alternative<msg::Join>(*parse(R"({"type":"join","game":"x"})").message));
    for (auto [name, cmd] :
         {std::pair{"claim_victory", msg::Command::ClaimVictory}, std::pair{"claim_draw", msg::Command::ClaimDraw},
          std::pair{"rematch_decline", msg::Command::RematchDecline}, std::pair{"draw_offer", msg::Command::DrawOffer},
          std::pair{"takeback_offer", msg::Command::TakebackOffer},
          std::pair{"takeback_accept", msg::Command::TakebackAccept},
          std::pair{"takeback_decline", msg::Command::TakebackDecline}}) {
        auto p = parse(std::string(R"({"type":")") + name + R"(","game":"g"})");
        ASSERT_TRUE(p.message) << name;
        EXPECT_EQ(std::get<msg::GameCommand>(*p.message).command, cmd);
        EXPECT_EQ(command_name(cmd), name);
    }
}

TEST(Messages, BadMessagesGetTheirReason) {
    auto reason = [](const std::string& s) {
        auto p = parse_client_message(s);
        EXPECT_FALSE(p.message) << s;
        return p.error ? p.error->reason : "";
    };
    EXPECT_EQ(reason("{not json"), "json_invalid");
    EXPECT_EQ(reason("[1]"), "json_not_object");
    EXPECT_EQ(reason(std::string(5000, '[') + std::string(5000, ']')), "json_too_deep");
    EXPECT_EQ(reason(std::string("{\"type\":\"ping\",\"t\":\"") + E_ACUTE_BYTE + "\"}"), "json_invalid");
    EXPECT_EQ(reason(R"({"type":"teleport"})"), "type_unknown");
    EXPECT_EQ(reason(R"({"type":7})"), "field_type");
    EXPECT_EQ(reason(R"({"game":"x"})"), "field_missing");
    EXPECT_EQ(reason(R"({"type":"move","game":"x"})"), "field_missing");
    EXPECT_EQ(reason(R"({"type":"move","game":"x","move":42})"), "field_type");
    EXPECT_EQ(reason(R"({"type":"move","game":"x","move":"e2e4","ply":1.5})"), "field_type");
    EXPECT_EQ(reason(R"({"type":"move","game":"x","move":"e2e4","ply":-1})"), "field_type");
    EXPECT_EQ(reason(R"({"type":"move","game":"x","move":")" + std::string(40, 'e') + "\"}"), "move_too_long");
    EXPECT_EQ(reason(R"({"type":"hello","token":"short"})"), "token_invalid");
    // The id and the game are echoed, even in an error.
    auto p = parse_client_message(R"({"type":"move","game":"Gm7Pq2Zx","id":"abc"})");
    EXPECT_EQ(p.game, "Gm7Pq2Zx");
    EXPECT_EQ(p.id_json, "\"abc\"");
    EXPECT_EQ(parse_client_message(R"({"type":"x","id":{"deep":1}})").id_json, "");  // only numbers and short strings
}

HttpContextPtr context(const std::string& method, const std::string& target, std::string body, HttpResponse& out,
                       std::map<std::string, std::string> headers = {}) {
    HttpRequest r;
    r.method = method;
    r.target = target;
    r.body = std::move(body);
    r.ip = "127.0.0.1";
    r.headers = std::move(headers);
    return std::make_shared<HttpContext>(std::move(r), [&out](HttpResponse res) { out = std::move(res); });
}

TEST(Router, RoutesParamsAndErrorsInOnePlace) {
    Router router;
    router.add("GET", "/api/seeks/:id", [](const HttpContextPtr& c) { c->json(200, {{"id", c->param("id")}}); });
    router.add("POST", "/api/throw", [](const HttpContextPtr&) { throw std::runtime_error("boom \xC3"); });
    router.add("POST", "/api/body", [](const HttpContextPtr& c) { c->json(200, c->body()); });
    router.add("GET", "/game/:id.pgn", [](const HttpContextPtr& c) { c->json(200, {{"pgn", c->param("id")}}); });
    router.add("GET", "/api/q", [](const HttpContextPtr& c) { c->json(200, {{"before", c->query("before")}}); });
    router.set_fallback([](const HttpContextPtr& c) { c->json(200, {{"static", c->path()}}); });
    HttpResponse res;
    router.dispatch(context("GET", "/api/seeks/Sk4Lm9Qa", "", res));
    EXPECT_EQ(json::parse(res.body)["id"], "Sk4Lm9Qa");
    router.dispatch(context("HEAD", "/api/seeks/Sk4Lm9Qa", "", res));
    EXPECT_EQ(res.status, 200);
    router.dispatch(context("DELETE", "/api/seeks/Sk4Lm9Qa", "", res));
    EXPECT_EQ(res.status, 405);
    router.dispatch(context("GET", "/api/nothing", "", res));
    EXPECT_EQ(res.status, 404);
    EXPECT_EQ(json::parse(res.body)["error"]["reason"], "no_endpoint");
    router.dispatch(context("POST", "/api/throw", "", res));
    EXPECT_EQ(res.status, 500);
    EXPECT_TRUE(valid_utf8(res.body));
    router.dispatch(context("GET", "/game/AbCdEfGh.pgn", "", res));
    EXPECT_EQ(json::parse(res.body)["pgn"], "AbCdEfGh");
    router.dispatch(context("GET", "/game/AbCdEfGh", "", res));
    EXPECT_EQ(json::parse(res.body)["static"], "/game/AbCdEfGh");
    router.dispatch(context("GET", "/api/q?before=Ab%43d&x", "", res));
    EXPECT_EQ(json::parse(res.body)["before"], "AbCd");
    // A body must be JSON, and say so.
    router.dispatch(context("POST", "/api/body", R"({"a":1})", res, {{"content-type", "text/plain"}}));
    EXPECT_EQ(res.status, 415);
    EXPECT_EQ(json::parse(res.body)["error"]["reason"], "content_type");
    router.dispatch(
        context("POST", "/api/body", R"({"a":1})", res, {{"content-type", "application/json; charset=utf-8"}}));
    EXPECT_EQ(res.status, 200);
    router.dispatch(context("POST", "/api/body", "", res));
    EXPECT_EQ(res.status, 200);  // no body: {}
}

TEST(Router, AnAnswerIsSentOnce) {
    Router router;
    router.add("GET", "/api/twice", [](const HttpContextPtr& c) {
        c->json(200, {{"n", 1}});
        c->json(200, {{"n", 2}});
        throw std::runtime_error("after the answer");
    });
    int answers = 0;
    HttpRequest r;
    r.method = "GET";
    r.target = "/api/twice";
    router.dispatch(std::make_shared<HttpContext>(r, [&](HttpResponse res) {
        ++answers;
        EXPECT_EQ(json::parse(res.body)["n"], 1);
    }));
    EXPECT_EQ(answers, 1);
}

TEST(Web, OriginsAndForwardedAddresses) {
    ServerOptions o;
    EXPECT_TRUE(origin_allowed("", "127.0.0.1:8080", o));
    EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", o));
    EXPECT_TRUE(origin_allowed("http://localhost:8080", "localhost:8080", o));
    EXPECT_TRUE(origin_allowed("http://[::1]:8080", "[::1]:8080", o));
    // A name could be another site's, pointed at this server (DNS
    // rebinding): without a public URL, no name but localhost is trusted.
    EXPECT_FALSE(origin_allowed("https://Echecs.Example", "echecs.example:443", o));
    EXPECT_FALSE(origin_allowed("http://evil.example", "evil.example", o));
    EXPECT_FALSE(origin_allowed("http://evil.example", "127.0.0.1:8080", o));
    EXPECT_FALSE(origin_allowed("http://127.0.0.1:8081", "127.0.0.1:8080", o));
    EXPECT_FALSE(origin_allowed("null", "127.0.0.1:8080", o));
    // With a public URL, its origin is the only one, whatever Host says.
    o.public_url = "https://Echecs.Example/play/";
    EXPECT_TRUE(origin_allowed("https://echecs.example", "echecs.example", o));
    EXPECT_TRUE(origin_allowed("https://echecs.example:443", "anything", o));
    EXPECT_FALSE(origin_allowed("http://echecs.example", "echecs.example", o));
    EXPECT_FALSE(origin_allowed("https://evil.example", "evil.example", o));
    EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", o));
    EXPECT_TRUE(from_another_site("https://echecs.example", "echecs.example", "cross-site", o));
    EXPECT_TRUE(from_another_site("https://evil.example", "evil.example", "same-origin", o));
    EXPECT_FALSE(from_another_site("https://echecs.example", "echecs.example", "same-origin", o));
    EXPECT_FALSE(from_another_site("", "echecs.example", "", o));
    o.public_url.clear();
    o.allowed_origins = {"http://friend.example"};
    EXPECT_TRUE(origin_allowed("http://friend.example", "127.0.0.1:8080", o));
    o.allowed_origins = {"*"};
    EXPECT_TRUE(origin_allowed("http://evil.example", "127.0.0.1:8080", o));
    ServerOptions p;
    EXPECT_EQ(client_ip("10.0.0.1", "1.2.3.4", p), "10.0.0.1");
    p.trust_forwarded_for = true;
    EXPECT_EQ(client_ip("10.0.0.1", "9.9.9.9, 1.2.3.4", p), "1.2.3.4");
    EXPECT_EQ(client_ip("10.0.0.1", "", p), "10.0.0.1");
}

TEST(Limits, TokenBucketAndAddresses) {
    TokenBucket b(2, 3, 0);  // 2 per second, bursts of 3
    EXPECT_TRUE(b.take(0));
    EXPECT_TRUE(b.take(0));
    EXPECT_TRUE(b.take(0));
    EXPECT_FALSE(b.take(0));
    EXPECT_FALSE(b.take(400));
    EXPECT_TRUE(b.take(500));
    ServerOptions o;
    o.max_connections_per_ip = 2;
    ClientLimits l(o);
    EXPECT_TRUE(l.open_connection("a", 0));
    EXPECT_TRUE(l.open_connection("a", 0));
    EXPECT_FALSE(l.open_connection("a", 0));
    EXPECT_TRUE(l.open_connection("b", 0));
    EXPECT_FALSE(l.open_connection("c", 3));  // the server's own limit
    l.close_connection("a");
    EXPECT_TRUE(l.open_connection("a", 0));
    EXPECT_EQ(l.connections(), 3);
    l.add_engine_game("b", +1);
    for (const char* ip : {"a", "a", "b"}) l.close_connection(ip);
    l.sweep(1'000'000);
    EXPECT_EQ(l.size(), 1u);  // b still has a game
}

// Polls `done` until it holds (true) or `timeout` passes (false): every
// wait of the scheduler tests is bounded and says what it waited for.
bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto end = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= end) return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

TEST(WorkScheduler, GamesGoFirstAndPreemptAnalyses) {
    // Declared before the scheduler: its threads run the jobs that use them
    // until its destructor has joined them.
    std::atomic<int> order{0};
    std::atomic<bool> analysis_started{false}, analysis_stopped{false};
    std::atomic<int> game_at{-1}, other_at{-1};
    work::Scheduler s(1, 100, 2);
    // A long analysis takes the only thread (until it is stopped, 60 s at most)...
    ASSERT_EQ(s.submit_analysis("flooder",
                                [&](const std::atomic<bool>& stop) {
                                    analysis_started = true;
                                    const auto end = std::chrono::steady_clock::now() + 60s;
                                    while (!stop && std::chrono::steady_clock::now() < end)
                                        std::this_thread::sleep_for(1ms);
                                    analysis_stopped = stop.load();
                                    order++;
                                }),
              work::Scheduler::Refusal::None);
    ASSERT_TRUE(wait_until([&] { return analysis_started.load(); }, 30s))
        << "waited 30 s for the scheduler to start the first analysis";
    // ...the flooder may queue one more, not three...
    EXPECT_EQ(s.submit_analysis("flooder", [&](const std::atomic<bool>&) { order++; }), work::Scheduler::Refusal::None);
    EXPECT_EQ(s.submit_analysis("flooder", [&](const std::atomic<bool>&) {}), work::Scheduler::Refusal::ClientFull);
    // ...another client queues behind it, and a game search overtakes everything.
    EXPECT_EQ(s.submit_analysis("other", [&](const std::atomic<bool>&) { other_at = order++; }),
              work::Scheduler::Refusal::None);
    ASSERT_TRUE(s.submit_game("player", [&](const std::atomic<bool>&) { game_at = order++; }));
    ASSERT_TRUE(wait_until([&] { return order.load() == 4; }, 30s))
        << "waited 30 s for the four jobs to run; " << order.load() << " ran";
    EXPECT_TRUE(analysis_stopped);  // stopped early for the game
    EXPECT_EQ(game_at, 1);          // right after the preempted analysis
    EXPECT_EQ(other_at, 2);         // the other client before the flooder's second
    EXPECT_EQ(s.preemptions(), 1u);
}

// A stream stopped and started again at once: the old analysis's places
// are given back when it is cancelled, not when its search returns, and
// exactly once.
TEST(WorkScheduler, CancelGivesTheClientsPlacesBackAtOnce) {
    std::atomic<bool> a_started{false}, a_stopped{false}, a_returned{false}, dropped_ran{false};
    std::atomic<bool> b_started{false}, release{false};
    std::atomic<int> b_ran{0};
    const int a = 0, b = 0;  // two owners: their addresses
    work::Scheduler s(1, 100, 2);
    using R = work::Scheduler::Refusal;
    auto wait_for = [](const std::atomic<bool>& flag, const std::atomic<bool>& stop) {
        const auto end = std::chrono::steady_clock::now() + 60s;
        while (!flag && !stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
    };
    // Owner a: one analysis running (until stopped), one waiting: the client is full.
    ASSERT_EQ(s.submit_analysis(
                  "c",
                  [&](const std::atomic<bool>& stop) {
                      a_started = true;
                      wait_for(release, stop);
                      a_stopped = stop.load();
                      a_returned = true;
                  },
                  &a),
              R::None);
    ASSERT_TRUE(wait_until([&] { return a_started.load(); }, 30s)) << "waited 30 s for the first analysis";
    ASSERT_EQ(s.submit_analysis(
                  "c", [&](const std::atomic<bool>&) { dropped_ran = true; }, &a),
              R::None);
    EXPECT_EQ(s.submit_analysis(
                  "c", [&](const std::atomic<bool>&) {}, &b),
              R::ClientFull);
    // Cancelled: both places are free before the running search has returned.
    EXPECT_EQ(s.cancel(&a), 2u);
    EXPECT_EQ(s.cancel(&a), 0u);
    EXPECT_EQ(s.cancel(nullptr), 0u);
    ASSERT_EQ(s.submit_analysis(
                  "c",
                  [&](const std::atomic<bool>& stop) {
                      b_started = true;
                      wait_for(release, stop);
                      b_ran++;
                  },
                  &b),
              R::None);
    ASSERT_EQ(s.submit_analysis(
                  "c", [&](const std::atomic<bool>&) { b_ran++; }, &b),
              R::None);
    EXPECT_EQ(s.submit_analysis(
                  "c", [&](const std::atomic<bool>&) {}, &b),
              R::ClientFull);
    // The cancelled search was told to stop and keeps its thread until it
    // returns; its return gives nothing back twice: the client stays full.
    ASSERT_TRUE(wait_until([&] { return b_started.load(); }, 30s)) << "waited 30 s for b's first analysis";
    EXPECT_TRUE(a_returned);
    EXPECT_TRUE(a_stopped);
    EXPECT_EQ(s.submit_analysis(
                  "c", [&](const std::atomic<bool>&) {}, &b),
              R::ClientFull);
    release = true;
    ASSERT_TRUE(wait_until([&] { return b_ran.load() == 2; }, 30s)) << "waited 30 s for b's two analyses";
    EXPECT_FALSE(dropped_ran);  // the waiting one was dropped, never run
}

TEST(WorkScheduler, GameSearchesAreFairBetweenAddresses) {
    std::atomic<bool> release{false}, started{false};
    std::mutex m;
    std::vector<std::string> ran;
    work::Scheduler s(1, 100, 2);
    // One address's game holds the only thread (until released, 60 s at most)...
    ASSERT_TRUE(s.submit_game("many", [&](const std::atomic<bool>& stop) {
        started = true;
        const auto end = std::chrono::steady_clock::now() + 60s;
        while (!release && !stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
    }));
    ASSERT_TRUE(wait_until([&] { return started.load(); }, 30s)) << "waited 30 s for the first game search";
    // ...its seven other games queue, then another player's one game...
    auto record = [&](std::string who) {
        return [&, who](const std::atomic<bool>&) {
            std::lock_guard lock(m);
            ran.push_back(who);
        };
    };
    s.take_waits();  // the first search's (none)
    for (int i = 0; i < 7; ++i) ASSERT_TRUE(s.submit_game("many", record("many")));
    ASSERT_TRUE(s.submit_game("one", record("one")));
    const auto queued_at = std::chrono::steady_clock::now();
    // They wait at least until the thread is released: the counters say so.
    std::this_thread::sleep_for(20ms);
    const auto held =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - queued_at);
    release = true;
    ASSERT_TRUE(wait_until(
        [&] {
            std::lock_guard lock(m);
            return ran.size() == 8;
        },
        30s))
        << "waited 30 s for the eight game searches";
    // ...which runs next, not after the seven.
    EXPECT_EQ(ran[0], "one");
    const auto [games, hashes, analyses] = s.take_waits();
    EXPECT_EQ(games.count, 8u);
    EXPECT_GE(games.max_ms, std::uint64_t(held.count()));
    EXPECT_GE(games.total_ms, 8 * std::uint64_t(held.count()));
    EXPECT_EQ(analyses.count, 0u);
    EXPECT_EQ(hashes.count, 0u);
}

// A long game search stops at the end of its slice when another client's
// game search waits (it plays the move found so far), not for a search of
// its own client, which waits its turn.
TEST(WorkScheduler, GameSearchesShareTheThreadInSlices) {
    std::atomic<bool> started{false}, stopped{false}, release{false};
    std::atomic<std::int64_t> ran_ms{0};
    std::mutex m;
    std::vector<std::string> ran;
    work::Scheduler s(1, 100, 2);
    ASSERT_TRUE(s.submit_game("long", [&](const std::atomic<bool>& stop) {
        const auto t0 = std::chrono::steady_clock::now();
        started = true;
        const auto end = t0 + 60s;
        while (!stop && !release && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
        stopped = stop.load();
        ran_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
    }));
    ASSERT_TRUE(wait_until([&] { return started.load(); }, 30s)) << "waited 30 s for the first game search";
    auto record = [&](std::string who) {
        return [&, who](const std::atomic<bool>&) {
            std::lock_guard lock(m);
            ran.push_back(who);
        };
    };
    // Its own client's next search waits: the slicer's check, long after the
    // slice (on the test's clock), cuts nothing.
    ASSERT_TRUE(s.submit_game("long", record("long")));
    EXPECT_FALSE(s.check_slices(std::chrono::steady_clock::now() +
                                10 * std::chrono::milliseconds(work::Scheduler::GAME_SLICE_MS)))
        << "cut for a search of its own client";
    EXPECT_FALSE(stopped) << "cut for a search of its own client";
    // Another client's search: the long one stops, and that search runs next.
    ASSERT_TRUE(s.submit_game("other", record("other")));
    ASSERT_TRUE(wait_until(
        [&] {
            std::lock_guard lock(m);
            return ran.size() == 2;
        },
        30s))
        << "waited 30 s for the two searches after the cut one; stopped " << stopped.load();
    EXPECT_TRUE(stopped);
    EXPECT_GE(ran_ms.load(), work::Scheduler::GAME_SLICE_MS);
    EXPECT_EQ(ran[0], "other");
    EXPECT_EQ(s.take_waits().games.cut, 1u);
}

TEST(WorkScheduler, TheQueueIsBounded) {
    // Before the scheduler: the blocking job still reads it while the
    // scheduler's destructor stops and joins its thread.
    std::atomic<bool> release{false};
    work::Scheduler s(1, 2, 10);
    auto block = [&](const std::atomic<bool>& stop) {  // until released or stopped, 60 s at most
        const auto end = std::chrono::steady_clock::now() + 60s;
        while (!release && !stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
    };
    ASSERT_EQ(s.submit_analysis("a", block), work::Scheduler::Refusal::None);
    ASSERT_TRUE(wait_until([&] { return s.queued() == 0; }, 30s))
        << "waited 30 s for the scheduler's thread to take the first job; still queued: " << s.queued();
    EXPECT_EQ(s.submit_analysis("b", block), work::Scheduler::Refusal::None);
    EXPECT_EQ(s.submit_analysis("c", block), work::Scheduler::Refusal::None);
    EXPECT_EQ(s.submit_analysis("d", block), work::Scheduler::Refusal::QueueFull);
    release = true;
}

// A job that holds its thread until released or stopped (60 s at most),
// and says when it started.
work::Scheduler::Job hold(std::atomic<bool>& release, std::atomic<bool>& started) {
    return [r = &release, s = &started](const std::atomic<bool>& stop) {
        *s = true;
        const auto end = std::chrono::steady_clock::now() + 60s;
        while (!*r && !stop && std::chrono::steady_clock::now() < end) std::this_thread::sleep_for(1ms);
    };
}

// Password hashes run on the threads the engine does not have: a log-in
// never waits for a search or an analysis, and analyses never take more
// than the engine's threads, however many threads are free.
TEST(WorkScheduler, HashesRunBesideTheEngineAndAnalysesKeepToItsThreads) {
    std::atomic<bool> release{false}, first_started{false}, second_started{false}, hashed{false};
    work::Scheduler s(work::Scheduler::Options{1, 2, 100, 2, 0});
    ASSERT_EQ(s.threads(), 2);
    ASSERT_EQ(s.submit_analysis("a", hold(release, first_started)), work::Scheduler::Refusal::None);
    ASSERT_TRUE(wait_until([&] { return first_started.load(); }, 30s)) << "waited 30 s for the first analysis";
    ASSERT_EQ(s.submit_analysis("b", [&](const std::atomic<bool>&) { second_started = true; }),
              work::Scheduler::Refusal::None);
    // The second analysis cannot take the free thread (the engine has one);
    // a hash can, while the first analysis still holds the engine's.
    ASSERT_TRUE(s.submit_hash(
        "10.0.0.1", [&](const std::atomic<bool>&) { hashed = true; }, nullptr));
    ASSERT_TRUE(wait_until([&] { return hashed.load(); }, 30s)) << "waited 30 s for the hash beside the analysis";
    EXPECT_FALSE(second_started) << "an analysis ran beyond the engine's one thread";
    EXPECT_EQ(s.queued(), 1u);
    release = true;
    ASSERT_TRUE(wait_until([&] { return second_started.load(); }, 30s)) << "waited 30 s for the second analysis";
    const auto waits = s.take_waits();
    EXPECT_EQ(waits.hashes.count, 1u);
    EXPECT_EQ(waits.analyses.count, 2u);
}

// A freed thread goes to a waiting game search before waiting hashes.
TEST(WorkScheduler, AGameSearchTakesAFreedThreadBeforeTheWaitingHashes) {
    std::atomic<bool> release{false}, holding{false};
    std::mutex m;
    std::vector<std::string> ran;
    work::Scheduler s(work::Scheduler::Options{1, 1, 100, 2, 0});
    auto record = [&](std::string who) {
        return [&, who](const std::atomic<bool>&) {
            std::lock_guard lock(m);
            ran.push_back(who);
        };
    };
    ASSERT_TRUE(s.submit_hash("x", hold(release, holding), nullptr));
    ASSERT_TRUE(wait_until([&] { return holding.load(); }, 30s)) << "waited 30 s for the first hash";
    ASSERT_TRUE(s.submit_hash("y", record("hash"), nullptr));
    ASSERT_TRUE(s.submit_game("player", record("game")));
    release = true;
    ASSERT_TRUE(wait_until(
        [&] {
            std::lock_guard lock(m);
            return ran.size() == 2;
        },
        30s))
        << "waited 30 s for the game search and the hash";
    EXPECT_EQ(ran, (std::vector<std::string>{"game", "hash"}));
}

// The accounts take their queued hashes back before they go (their jobs
// refer to them): a withdrawn hash never runs, others' still do.
TEST(WorkScheduler, WithdrawnHashesNeverRun) {
    std::atomic<bool> release{false}, holding{false}, other_ran{false};
    std::atomic<int> withdrawn_ran{0};
    work::Scheduler s(work::Scheduler::Options{0, 1, 100, 2, 0});
    const int mine = 0, theirs = 0;
    ASSERT_TRUE(s.submit_hash("c", hold(release, holding), &theirs));
    ASSERT_TRUE(wait_until([&] { return holding.load(); }, 30s)) << "waited 30 s for the first hash";
    for (int i = 0; i < 3; ++i)
        ASSERT_TRUE(s.submit_hash(
            "c", [&](const std::atomic<bool>&) { ++withdrawn_ran; }, &mine));
    ASSERT_TRUE(s.submit_hash(
        "c", [&](const std::atomic<bool>&) { other_ran = true; }, &theirs));
    EXPECT_EQ(s.withdraw(&mine), 3u);
    EXPECT_EQ(s.withdraw(&mine), 0u);
    release = true;
    // The same client's queue is first in, first out: had they stayed, the
    // three would have run before the other's.
    ASSERT_TRUE(wait_until([&] { return other_ran.load(); }, 30s)) << "waited 30 s for the hash that stayed";
    EXPECT_EQ(withdrawn_ran.load(), 0);
}

#ifdef __linux__
// The scheduler's threads run nicer than the process, so that a core full of
// searches (or of uploads being read) still gives the I/O thread, which
// carries the moves, its time at once (PERFORMANCE.md, the upload flood).
TEST(WorkScheduler, ItsThreadsRunNicerThanTheProcess) {
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, 0);
    ASSERT_EQ(errno, 0);
    for (int nice : {5, 0}) {
        work::Scheduler s(1, 10, 2, nice);
        std::promise<int> seen;
        std::future<int> f = seen.get_future();
        ASSERT_EQ(s.submit_analysis("a",
                                    [&](const std::atomic<bool>&) {
                                        seen.set_value(getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid))));
                                    }),
                  work::Scheduler::Refusal::None);
        ASSERT_EQ(f.wait_for(30s), std::future_status::ready) << "waited 30 s for the job to run";
        EXPECT_EQ(f.get(), std::min(19, base + nice)) << "nice " << nice << " below the process's " << base;
    }
    // The calling thread keeps the process's priority.
    EXPECT_EQ(getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid))), base);
}

// The storage reader runs the listings that any address may ask for, many at
// once: nicer than the process, like the engine. The writer, which commits
// the moves, keeps the process's priority (PERFORMANCE.md, the listing flood).
TEST(StorageWorker, ItsReaderRunsNicerThanTheProcessAndItsWriterDoesNot) {
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, 0);
    ASSERT_EQ(errno, 0);
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("echecs-units-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    {
        auto this_thread = [] { return getpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid))); };
        // Completions run where they are posted from: the reader's or the writer's thread.
        StorageWorker w(open_storage((dir / "t.db").string()), [](std::function<void()> f) { f(); });
        std::promise<int> reader, writer;
        ASSERT_TRUE(w.read([&](Storage&) { reader.set_value(this_thread()); }));
        w.write({}, [&](bool, const std::string&) { writer.set_value(this_thread()); });
        auto r = reader.get_future(), wr = writer.get_future();
        ASSERT_EQ(r.wait_for(30s), std::future_status::ready) << "waited 30 s for the read";
        ASSERT_EQ(wr.wait_for(30s), std::future_status::ready) << "waited 30 s for the write";
        EXPECT_EQ(r.get(), std::min(19, base + 5));
        EXPECT_EQ(wr.get(), base);
    }
    std::filesystem::remove_all(dir);
}
#endif

}  // namespace

// (Engine code the server review found: the children of `echecs match`.)
#include <filesystem>
#include <set>

#include "engine/uci_process.h"

namespace {

std::set<std::string> open_descriptors() {
    std::set<std::string> fds;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/fd")) fds.insert(e.path().filename());
    return fds;
}

TEST(UciProcess, AnEngineDoesNotInheritAnotherEnginesPipes) {
    const std::set<std::string> before = open_descriptors();
    engine::UciProcess first("sleep 5");
    std::set<std::string> first_pipes;
    for (const std::string& fd : open_descriptors())
        if (!before.count(fd)) first_pipes.insert(fd);
    ASSERT_EQ(first_pipes.size(), 2u);  // our ends of its stdin and stdout
    engine::UciProcess second("ls /proc/self/fd");
    std::set<std::string> inherited;
    while (auto line = second.read_line(5000)) inherited.insert(*line);
    ASSERT_TRUE(inherited.count("0") && inherited.count("1"));
    for (const std::string& fd : first_pipes) EXPECT_FALSE(inherited.count(fd)) << "descriptor " << fd;
}

}  // namespace
