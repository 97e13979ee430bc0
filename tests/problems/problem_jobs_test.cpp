// The problems page's server side without sockets: requests read with errors
// that name their field, Popeye export and import, and the jobs (quota,
// progress, cancel, preemption by the pool, expiry).
#include "server/problems/problem_jobs.h"

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <thread>

using namespace echecs::problems;
using echecs::server::ApiError;
using echecs::server::Reason;
using nlohmann::json;

namespace {

// Alice #2 built so that the key works through a board transfer (tests/solver).
const char* ALICE2 = "3o2r1/bp1Q4/s1OPOp1o/B2P4/P2PP2R/rS1k3s/4SP2/1b1K4 w - - 0 1";
const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

json alice2() { return {{"variant", "alice"}, {"fen", ALICE2}, {"stipulation", "#2"}}; }

ApiError error_of(const json& body) {
    try {
        read_solve_request(body);
    } catch (const ApiError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for " << body.dump();
    return ApiError(Reason::internal, "no error");
}

// Runs each job on its own thread, as the engine pool would; joined at the end.
struct ThreadRunner {
    std::vector<std::thread> threads;
    std::atomic<bool> stop{false};
    ProblemJobs::Runner runner() {
        return [this](ProblemJobs::Work w) {
            threads.emplace_back([this, w = std::move(w)] { w(stop); });
            return true;
        };
    }
    ~ThreadRunner() {
        for (auto& t : threads) t.join();
    }
};

json wait_done(const ProblemJobs& jobs, const std::string& id) {
    for (int i = 0; i < 6000; ++i) {  // at most 60 s
        auto s = jobs.status(id);
        if (!s) return json();
        if ((*s)["status"] == "done") return *s;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return json();
}

}  // namespace

TEST(ProblemRequest, ReadsTheProblemAndItsOptions) {
    json b = alice2();
    b["tries"] = true;
    b["max_solutions"] = 3;
    b["timeout"] = 5;
    b["title"] = "Andernach é";
    const SolveRequest r = read_solve_request(b);
    EXPECT_EQ(r.problem.variant, echecs::Variant::Alice);
    EXPECT_EQ(r.problem.stipulation.str(), "#2");
    EXPECT_TRUE(r.tries);
    EXPECT_FALSE(r.set_play);
    EXPECT_TRUE(r.threats);
    EXPECT_EQ(r.max_solutions, 3);
    EXPECT_EQ(r.timeout_seconds, 5);
    EXPECT_EQ(r.problem.title, "Andernach é");
}

TEST(ProblemRequest, EveryBadFieldIsNamed) {
    struct Case {
        json body;
        const char* field;
        const char* reason;
    };
    json no_fen = alice2();
    no_fen.erase("fen");
    std::vector<Case> cases = {
        {json::array(), "", "not_object"},
        {no_fen, "fen", "missing"},
        {{{"fen", 12}, {"stipulation", "#2"}}, "fen", "not_text"},
        {{{"fen", std::string(300, 'p')}, {"stipulation", "#2"}}, "fen", "too_long"},
        {{{"fen", "8/8/8/8/8/8/8/RNBQKBN\xC3 w - - 0 1"}, {"stipulation", "#2"}}, "fen", "bad_utf8"},
        {{{"fen", "8/8 w - - 0 1"}, {"stipulation", "#2"}}, "fen", "bad_fen"},
        {{{"variant", "shogi"}, {"fen", ALICE2}, {"stipulation", "#2"}}, "variant", "variant_unknown"},
        {{{"fen", START}, {"stipulation", "h#2.7"}}, "stipulation", "bad_stipulation"},
        {{{"fen", START}, {"stipulation", "#9"}}, "stipulation", "stipulation_too_long"},
        {{{"fen", START}, {"stipulation", "#2"}, {"tries", "yes"}}, "tries", "not_boolean"},
        {{{"fen", START}, {"stipulation", "#2"}, {"max_solutions", -1}}, "max_solutions", "out_of_range"},
        {{{"fen", START}, {"stipulation", "#2"}, {"timeout", "1"}}, "timeout", "not_number"},
        {{{"fen", START}, {"stipulation", "#2"}, {"title", std::string(201, 'x')}}, "title", "too_long"},
    };
    for (const Case& c : cases) {
        const ApiError e = error_of(c.body);
        EXPECT_EQ(e.field, c.field) << c.body.dump(-1, ' ', false, json::error_handler_t::replace);
        EXPECT_EQ(e.reason, c.reason) << e.what();
        std::string what = e.what();
        for (char& ch : what) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        EXPECT_NE(what.find(c.field), std::string::npos) << e.what();
    }
    // The FEN error says which field of the FEN.
    EXPECT_NE(std::string(error_of({{"fen", "8/8 w - - 0 1"}, {"stipulation", "#2"}}).what()).find("placement"),
              std::string::npos);
}

TEST(ProblemRequest, PopeyeExportReadsBackAsTheSameProblem) {
    json b = alice2();
    b["title"] = "two boards";
    const json out = popeye_export(b);
    const std::string text = out["popeye"];
    EXPECT_NE(text.find("condition alice"), std::string::npos);
    const json in = popeye_import({{"text", text}});
    ASSERT_EQ(in["problems"].size(), 1u);
    const json& twin = in["problems"][0]["twins"][0];
    EXPECT_EQ(twin["variant"], "alice");
    EXPECT_EQ(twin["fen"], ALICE2);
    EXPECT_EQ(twin["stipulation"], "#2");
}

TEST(ProblemRequest, PopeyeImportErrorsNameTheLine) {
    try {
        popeye_import({{"text", "begin\npieces white kz9\nstipulation #2\nend\n"}});
        FAIL() << "no error";
    } catch (const ApiError& e) {
        EXPECT_EQ(e.field, "text");
        EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
    }
    EXPECT_THROW(popeye_import({{"text", 3}}), ApiError);
    EXPECT_THROW(popeye_import(json::array()), ApiError);
}

TEST(ProblemJobs, SolvesAndReportsTheTreeAndTheComposersText) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    auto s = jobs.submit(read_solve_request(alice2()), "10.0.0.1", "owner", pool.runner());
    ASSERT_EQ(s.refusal, ProblemJobs::Refusal::None);
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    EXPECT_EQ(done["result"]["status"], "complete");
    EXPECT_EQ(done["result"]["keys"].size(), 1u);
    EXPECT_NE(done["text"].get<std::string>().find("1.Qd7-e8B!"), std::string::npos) << done["text"];
    EXPECT_GT(done["result"]["nodes"].get<std::uint64_t>(), 0u);
    EXPECT_FALSE(done["preempted"].get<bool>());
    EXPECT_FALSE(jobs.status("nosuchjob"));
    // What the page showed while it ran: the key, as soon as it was proven.
    ASSERT_EQ(done["found"].size(), 1u) << done.dump();
    EXPECT_NE(done["found"][0].get<std::string>().find("1.Qd7-e8B!"), std::string::npos) << done["found"];
}

// Each help solution is shown as it is found, the same text as the result's.
TEST(ProblemJobs, SolutionsAreShownAsTheyAreFound) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    // Black helps White to mate in two, Black first: 1.f6 e4 2.g5 Qh5# and the like.
    json h = {{"variant", "chess"}, {"fen", START}, {"stipulation", "h#2"}};
    auto s = jobs.submit(read_solve_request(h), "10.0.0.1", "owner", pool.runner());
    ASSERT_EQ(s.refusal, ProblemJobs::Refusal::None);
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    ASSERT_EQ(done["result"]["status"], "complete");
    const std::size_t n = done["result"]["help"].size();
    ASSERT_GE(n, 2u) << done["text"];
    ASSERT_EQ(done["found"].size(), n) << done.dump();
    const std::string text = done["text"];
    for (const auto& line : done["found"]) {
        EXPECT_NE(line.get<std::string>().find("Qd1-h5#"), std::string::npos) << line;
        EXPECT_NE(text.find(line.get<std::string>()), std::string::npos) << line << " not in\n" << text;
    }
}

// A request for all solutions keeps at most MAX_SOLUTIONS: this h#3 has 392,632 of them
// (an h#4 of the kind, millions in seconds and gigabytes kept), and says so.
TEST(ProblemJobs, AllSolutionsAreAtMostTheServersMaximum) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    json h = {{"variant", "chess"}, {"fen", "2k1Q3/5P1Q/1R2pK2/2P5/8/8/P1Pr4/8 b - - 0 1"}, {"stipulation", "h#3"}};
    auto s = jobs.submit(read_solve_request(h), "10.0.0.1", "owner", pool.runner());
    ASSERT_EQ(s.refusal, ProblemJobs::Refusal::None);
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    EXPECT_EQ(done["result"]["status"], "max solutions");
    EXPECT_EQ(done["result"]["help"].size(), std::size_t(MAX_SOLUTIONS));
}

TEST(ProblemJobs, OneUnfinishedJobPerAddressAndPoolRefusalsKeepNothing) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    std::vector<ProblemJobs::Work> held;  // a pool that never runs them
    auto hold = [&](ProblemJobs::Work w) {
        held.push_back(std::move(w));
        return true;
    };
    auto a = jobs.submit(read_solve_request(alice2()), "10.0.0.1", "o1", hold);
    EXPECT_EQ(a.refusal, ProblemJobs::Refusal::None);
    EXPECT_EQ((*jobs.status(a.id))["status"], "queued");
    EXPECT_EQ(jobs.submit(read_solve_request(alice2()), "10.0.0.1", "o1", hold).refusal,
              ProblemJobs::Refusal::ClientBusy);
    EXPECT_EQ(jobs.submit(read_solve_request(alice2()), "10.0.0.2", "o2", hold).refusal, ProblemJobs::Refusal::None);
    auto full = [](ProblemJobs::Work) { return false; };
    EXPECT_EQ(jobs.submit(read_solve_request(alice2()), "10.0.0.3", "o3", full).refusal,
              ProblemJobs::Refusal::PoolFull);
    EXPECT_EQ(jobs.size(), 2u);

    // Cancelled while queued: it ends at once when the pool gets to it, with
    // the same answer as a solve cancelled while it runs.
    EXPECT_EQ(jobs.cancel(a.id, "someone else"), ProblemJobs::Cancel::NotOwner);
    EXPECT_EQ(jobs.cancel("nosuchjob", "o1"), ProblemJobs::Cancel::NotFound);
    EXPECT_EQ(jobs.cancel(a.id, "o1"), ProblemJobs::Cancel::Done);
    std::atomic<bool> stop{false};
    held[0](stop);
    const json s = *jobs.status(a.id);
    EXPECT_EQ(s["status"], "done");
    EXPECT_EQ(s["result"]["status"], "cancelled") << s.dump();
    EXPECT_EQ(s["result"]["first_moves_done"], 0);
    EXPECT_EQ(s["result"]["nodes"], 0);
    EXPECT_TRUE(s["error"].is_null());
    // The address may solve again.
    EXPECT_EQ(jobs.submit(read_solve_request(alice2()), "10.0.0.1", "o1", hold).refusal, ProblemJobs::Refusal::None);
}

TEST(ProblemJobs, CancelStopsARunningSolveAndSaysItIsIncomplete) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    json b = {{"variant", "avalanche"}, {"fen", START}, {"stipulation", "#5"}};
    auto s = jobs.submit(read_solve_request(b), "10.0.0.1", "o", pool.runner());
    for (int i = 0; i < 500 && (*jobs.status(s.id))["status"] != "running"; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(jobs.cancel(s.id, "o"), ProblemJobs::Cancel::Done);
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    EXPECT_EQ(done["result"]["status"], "cancelled");
    EXPECT_FALSE(done["preempted"].get<bool>());
}

TEST(ProblemJobs, ThePoolTakingItsThreadBackEndsTheSolveAsPreempted) {
    auto jobs_ptr = std::make_shared<ProblemJobs>();
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    json b = {{"variant", "avalanche"}, {"fen", START}, {"stipulation", "#5"}};
    auto s = jobs.submit(read_solve_request(b), "10.0.0.1", "o", pool.runner());
    // Once the solver runs (it has counted nodes): a stop before it starts is
    // a cancel, not a preemption.
    bool searching = false;
    for (int i = 0; i < 3000 && !searching; ++i) {  // at most 30 s
        searching = (*jobs.status(s.id))["progress"]["nodes"].get<std::uint64_t>() > 0;
        if (!searching) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(searching) << "waited 30 s for the solver to report its first nodes";
    pool.stop = true;
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    EXPECT_TRUE(done["preempted"].get<bool>());
}

TEST(ProblemJobs, TheTimeLimitIsTheServersAtMost) {
    JobLimits l;
    l.max_seconds = 0.3;
    auto jobs_ptr = std::make_shared<ProblemJobs>(l);
    ProblemJobs& jobs = *jobs_ptr;
    ThreadRunner pool;
    json b = {{"variant", "avalanche"}, {"fen", START}, {"stipulation", "#5"}, {"timeout", 3600}};
    auto s = jobs.submit(read_solve_request(b), "10.0.0.1", "o", pool.runner());
    const json done = wait_done(jobs, s.id);
    ASSERT_FALSE(done.is_null());
    EXPECT_EQ(done["result"]["status"], "timeout");
    EXPECT_LT(done["result"]["seconds"].get<double>(), 5.0);
}

TEST(ProblemJobs, FinishedJobsAreForgottenAfterTheirTime) {
    std::int64_t now = 1000;
    JobLimits l;
    l.keep_ms = 5000;
    l.max_jobs = 2;
    l.per_client = 5;
    auto jobs_ptr = std::make_shared<ProblemJobs>(l, [&] { return now; });
    ProblemJobs& jobs = *jobs_ptr;
    std::atomic<bool> stop{false};
    auto inline_run = [&](ProblemJobs::Work w) {
        w(stop);
        return true;
    };
    auto a = jobs.submit(read_solve_request(alice2()), "c", "o", inline_run);
    now += 10;
    auto b = jobs.submit(read_solve_request(alice2()), "c", "o", inline_run);
    // Full: the oldest finished job makes room.
    auto c = jobs.submit(read_solve_request(alice2()), "c", "o", inline_run);
    EXPECT_EQ(c.refusal, ProblemJobs::Refusal::None);
    EXPECT_FALSE(jobs.status(a.id));
    EXPECT_TRUE(jobs.status(b.id));
    now += 6000;
    jobs.sweep();
    EXPECT_EQ(jobs.size(), 0u);
    EXPECT_NE(b.id, c.id);
}
