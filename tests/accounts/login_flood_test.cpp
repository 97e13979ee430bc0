// Log-ins under a flood (issue 24): the hashes run on their own workers, so
// that a logged-in player's request waits for none; they are served fairly
// between addresses and between accounts; the untrusted queue is bounded;
// a device cookie (OWASP) puts its account's log-ins first and exempts them
// from the lockouts that others' guesses cause; stored hashes are brought to
// the current cost at log-in. No timing is asserted: the order of answers,
// with the hashing worker held at a gate.
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "accounts_fixture.h"
#include "server/accounts/account_service.h"

using namespace echecs::server::accounts;
using echecs::server::accounts::testing::AccountsTest;

namespace {

using namespace std::chrono_literals;

// Holds the hashing workers before each hash until opened.
struct HashGate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    int entered = 0;
    std::function<void()> hook() {
        return [this] {
            std::unique_lock lock(m);
            ++entered;
            cv.notify_all();
            cv.wait(lock, [&] { return open; });
        };
    }
    bool wait_entered(int n) {
        std::unique_lock lock(m);
        return cv.wait_for(lock, 60s, [&] { return entered >= n; });
    }
    void release() {
        std::lock_guard lock(m);
        open = true;
        cv.notify_all();
    }
};

class LoginFloodTest : public AccountsTest {
protected:
    struct Answer {
        std::string who;
        HttpAnswer a;
    };
    ServiceOptions options(HashGate& gate) {
        ServiceOptions o;
        o.hash_workers = 1;  // one worker: the order of the hashes shows
        o.before_hash = gate.hook();
        return o;
    }
    static HttpIn login(const std::string& ip, const std::string& name, const std::string& password = "wrong one 1",
                        const std::string& cookie = "") {
        HttpIn in;
        in.content_type = "application/json";
        in.body = {{"username", name}, {"password", password}};
        in.client_ip = ip;
        in.cookie = cookie;
        return in;
    }
    std::function<void(HttpAnswer)> answered(const std::string& who) {
        return [this, who](HttpAnswer a) {
            std::lock_guard lock(m_);
            answers_.push_back({who, std::move(a)});
        };
    }
    std::size_t count() {
        std::lock_guard lock(m_);
        return answers_.size();
    }
    // Bounded waits (60 s; a test clock and the cheapest hash).
    bool wait_answers(std::size_t n) {
        for (int i = 0; i < 6000 && count() < n; ++i) std::this_thread::sleep_for(10ms);
        return count() >= n;
    }
    static bool wait_waiting(AccountService& s, std::size_t n) {
        for (int i = 0; i < 6000 && s.hashes_waiting() < n; ++i) std::this_thread::sleep_for(10ms);
        return s.hashes_waiting() >= n;
    }
    std::vector<std::string> order() {
        std::lock_guard lock(m_);
        std::vector<std::string> out;
        for (const Answer& a : answers_) out.push_back(a.who);
        return out;
    }
    Answer answer_of(const std::string& who) {
        std::lock_guard lock(m_);
        for (const Answer& a : answers_)
            if (a.who == who) return a;
        return {};
    }
    static std::string device_of(const HttpAnswer& a) { return a.device_cookie.substr(0, a.device_cookie.find(';')); }

    std::mutex m_;
    std::vector<Answer> answers_;
};

TEST_F(LoginFloodTest, ALoggedInPlayerIsAnsweredWhileTheHashWorkerIsBusyAndANewAddressGoesFirst) {
    const SessionInfo ann = sign_up("Ann");
    HashGate gate;
    auto service = std::make_unique<AccountService>(std::move(accounts_), options(gate));
    service->handle(Endpoint::LogIn, login("10.0.0.9", "holder"), answered("holder"));
    ASSERT_TRUE(gate.wait_entered(1)) << "the first hash never started";
    // Two flooding addresses, three log-ins each (to names of their own, as
    // a flood would), then a new address's log-in.
    int n = 0;
    for (const char* flooder : {"10.0.0.1", "10.0.0.2"})
        for (int i = 0; i < 3; ++i)
            service->handle(Endpoint::LogIn, login(flooder, "nobody" + std::to_string(++n)), answered(flooder));
    service->handle(Endpoint::LogIn, login("10.0.0.3", "someone"), answered("10.0.0.3"));
    // A logged-in player's request, while the only worker is held mid-hash.
    HttpIn me;
    me.client_ip = "10.0.0.4";
    me.cookie = "echecs_session=" + ann.secret;
    service->handle(Endpoint::Me, me, answered("me"));
    ASSERT_TRUE(wait_answers(1)) << "who-am-I was not answered within 60 s while a hash was held";
    EXPECT_EQ(order(), std::vector<std::string>{"me"});
    EXPECT_EQ(answer_of("me").a.status, 200);
    ASSERT_TRUE(wait_waiting(*service, 7)) << "the log-ins were not all queued within 60 s";
    gate.release();
    ASSERT_TRUE(wait_answers(9)) << "the log-ins were not all answered within 60 s";
    service.reset();
    // One hash per address in turn; the new address after the first of each.
    EXPECT_EQ(order(), (std::vector<std::string>{"me", "holder", "10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.1",
                                                 "10.0.0.2", "10.0.0.1", "10.0.0.2"}));
    for (const Answer& a : answers_) {
        if (a.who != "me") {
            EXPECT_EQ(a.a.status, 401) << a.who;
        }
    }
}

TEST_F(LoginFloodTest, LogInsAreFairPerAccountAsWellAsPerAddress) {
    sign_up("Ann");
    sign_up("Bob");
    HashGate gate;
    auto service = std::make_unique<AccountService>(std::move(accounts_), options(gate));
    service->handle(Endpoint::LogIn, login("10.0.0.9", "holder"), answered("holder"));
    ASSERT_TRUE(gate.wait_entered(1)) << "the first hash never started";
    // Three addresses guessing at Ann, two each; one address trying three names.
    for (const char* a : {"10.0.0.1", "10.0.0.2", "10.0.0.3"})
        for (int i = 0; i < 2; ++i)
            service->handle(Endpoint::LogIn, login(a, "Ann"), answered(std::string("ann ") + a));
    for (const char* name : {"Carl", "Dina", "Emil"})
        service->handle(Endpoint::LogIn, login("10.0.0.5", name), answered("names"));
    // Bob, from a new address: his account's first log-in.
    service->handle(Endpoint::LogIn, login("10.0.0.6", "Bob", "battery staple 42"), answered("bob"));
    ASSERT_TRUE(wait_waiting(*service, 10)) << "the log-ins were not all queued within 60 s";
    gate.release();
    ASSERT_TRUE(wait_answers(11)) << "the log-ins were not all answered within 60 s";
    service.reset();
    // Ann's six guesses take six turns, whatever their addresses; the
    // address trying three names, three; Bob, one: after the first round.
    EXPECT_EQ(order(),
              (std::vector<std::string>{"holder", "ann 10.0.0.1", "names", "bob", "ann 10.0.0.1", "names",
                                        "ann 10.0.0.2", "names", "ann 10.0.0.2", "ann 10.0.0.3", "ann 10.0.0.3"}));
    EXPECT_EQ(answer_of("bob").a.status, 200);
}

TEST_F(LoginFloodTest, TheUntrustedQueueIsBoundedAndRefusesTheLatestTurnAtOnce) {
    HashGate gate;
    ServiceOptions o = options(gate);
    o.max_hash_waiting = 3;
    auto service = std::make_unique<AccountService>(std::move(accounts_), o);
    service->handle(Endpoint::LogIn, login("10.0.0.9", "holder"), answered("holder"));
    ASSERT_TRUE(gate.wait_entered(1)) << "the first hash never started";
    for (int i = 1; i <= 4; ++i)
        service->handle(Endpoint::LogIn, login("10.0.0.1", "nobody" + std::to_string(i)),
                        answered("flood " + std::to_string(i)));
    // The fourth is over the bound and its turn the latest: refused at once.
    ASSERT_TRUE(wait_answers(1)) << "the request over the bound was not refused within 60 s";
    Answer over = answer_of("flood 4");
    EXPECT_EQ(over.a.status, 503);
    EXPECT_EQ(over.a.body["error"]["reason"], "accounts_busy");
    EXPECT_GE(over.a.retry_after_s, 1);
    // A new address's turn is earlier than the flood's third: that one goes.
    service->handle(Endpoint::LogIn, login("10.0.0.2", "someone"), answered("new"));
    ASSERT_TRUE(wait_answers(2)) << "the latest turn was not refused within 60 s";
    EXPECT_EQ(order()[1], "flood 3");
    EXPECT_EQ(answer_of("flood 3").a.status, 503);
    gate.release();
    ASSERT_TRUE(wait_answers(6)) << "the log-ins were not all answered within 60 s";
    // What the operator's minute line says: four hashed, two refused.
    const AccountService::HashWaits waits = service->take_hash_waits();
    EXPECT_EQ(waits.count, 4u);
    EXPECT_EQ(waits.refused, 2u);
    EXPECT_GE(waits.total_ms, waits.max_ms);
    const AccountService::HashWaits again = service->take_hash_waits();
    EXPECT_EQ(again.count + again.refused, 0u) << "the counts start again after each call";
    service.reset();
    EXPECT_EQ(order(), (std::vector<std::string>{"flood 4", "flood 3", "holder", "flood 1", "new", "flood 2"}));
}

TEST_F(LoginFloodTest, ADeviceCookieGoesBeforeTheUntrustedFlood) {
    const SessionInfo ann = sign_up("Ann");
    ASSERT_FALSE(ann.device.empty()) << "a sign-up makes the browser a known device";
    HashGate gate;
    auto service = std::make_unique<AccountService>(std::move(accounts_), options(gate));
    service->handle(Endpoint::LogIn, login("10.0.0.9", "holder"), answered("holder"));
    ASSERT_TRUE(gate.wait_entered(1)) << "the first hash never started";
    for (int i = 0; i < 3; ++i)
        for (const char* a : {"10.0.0.1", "10.0.0.2"}) service->handle(Endpoint::LogIn, login(a, "Ann"), answered(a));
    // Ann, in her own browser: the device cookie of her account.
    service->handle(Endpoint::LogIn, login("10.0.0.1", "ann", "battery staple 42", "x=1; echecs_device=" + ann.device),
                    answered("ann"));
    ASSERT_TRUE(wait_waiting(*service, 7)) << "the log-ins were not all queued within 60 s";
    gate.release();
    ASSERT_TRUE(wait_answers(8)) << "the log-ins were not all answered within 60 s";
    service.reset();
    EXPECT_EQ(order()[0], "holder");
    EXPECT_EQ(order()[1], "ann");
    const HttpAnswer a = answer_of("ann").a;
    EXPECT_EQ(a.status, 200);
    EXPECT_NE(a.device_cookie.find("echecs_device="), std::string::npos);
    EXPECT_NE(a.device_cookie.find("; Path=/api/login; HttpOnly; SameSite=Lax"), std::string::npos);
}

TEST_F(LoginFloodTest, NobodyElsesGuessesLockADeviceOut) {
    const SessionInfo ann = sign_up("Ann");
    const std::string device = ann.device;
    // Eight wrong guesses at Ann from the address she uses (a shared NAT):
    // that address is locked out of Ann's account without a device cookie...
    for (int k = 0; k < options_.login_failures_per_account; ++k) {
        now_ += 1000;
        EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "wrong", "10.1.0.1", ""); }).status(), 401);
    }
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.1.0.1", ""); }).status(), 429);
    // ... and so is the address's log-in quota (20 in 10 minutes).
    for (int k = 0; k < options_.login_per_ip; ++k)
        (void)error_of([&] { accounts_->log_in("user" + std::to_string(k), "wrong", "10.1.0.1", ""); });
    // Ann's browser still logs in from it, and gets a new device cookie.
    const SessionInfo again = accounts_->log_in("Ann", "battery staple 42", "10.1.0.1", "", device);
    EXPECT_EQ(again.username, "Ann");
    EXPECT_FALSE(again.device.empty());
    // Ann's cookie is not Bob's, nor is a cookie with a changed byte.
    sign_up("Bob");
    for (int k = 0; k < options_.login_failures_per_account; ++k)
        (void)error_of([&] { accounts_->log_in("Bob", "wrong", "10.1.0.2", ""); });
    EXPECT_EQ(error_of([&] { accounts_->log_in("Bob", "battery staple 42", "10.1.0.2", "", device); }).status(), 429);
    std::string forged = device;
    forged.back() = forged.back() == 'A' ? 'B' : 'A';
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.1.0.1", "", forged); }).status(), 429);
    // A stolen cookie without the password: its own failures untrust it.
    for (int k = 0; k < options_.login_failures_per_device; ++k)
        EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "wrong", "10.1.0.1", "", again.device); }).status(), 401);
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "battery staple 42", "10.1.0.1", "", again.device); }).status(),
              429);
    // A new password voids every device cookie (they are signed with the hash).
    accounts_->change_password(again.secret, "battery staple 42", "a new passphrase 7");
    EXPECT_EQ(error_of([&] { accounts_->log_in("Ann", "a new passphrase 7", "10.1.0.1", "", device); }).status(), 429);
    EXPECT_EQ(accounts_->log_in("Ann", "a new passphrase 7", "10.1.0.9", "").username, "Ann");
}

TEST_F(LoginFloodTest, AHashOfAnotherCostIsHashedAgainAtLogInAndSessionsStay) {
    const SessionInfo first = sign_up("Ann");
    const std::string before = accounts_->store().find_account("Ann")->password_hash;
    options_.cost = HashCost{2, 16 * 1024};  // the server's cost changed
    open();
    EXPECT_TRUE(needs_rehash(before, options_.cost));
    const SessionInfo s = accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "");
    const std::string after = accounts_->store().find_account("Ann")->password_hash;
    EXPECT_NE(after, before);
    EXPECT_NE(after.find("m=16,t=2"), std::string::npos) << after;
    EXPECT_FALSE(needs_rehash(after, options_.cost));
    EXPECT_EQ(accounts_->who_am_i(first.secret).username, "Ann");  // the other session stays
    EXPECT_EQ(accounts_->log_in("Ann", "battery staple 42", "10.0.0.1", "").username, "Ann");
    EXPECT_EQ(accounts_->store().find_account("Ann")->password_hash, after);  // once
    EXPECT_FALSE(s.device.empty());
}

}  // namespace

// In the server, the hashes run on its one scheduler of heavy work
// (work/scheduler.h): on the threads the engine does not hold, so that a
// log-in is answered while an analysis holds the engine's thread.
TEST_F(LoginFloodTest, TheHashesRunOnTheServersSchedulerBesideTheEngine) {
    sign_up("Ann");
    std::atomic<bool> release{false}, analysing{false}, analysis_over{false};
    echecs::server::work::Scheduler scheduler(echecs::server::work::Scheduler::Options{1, 2, 10, 2, 0});
    ASSERT_EQ(scheduler.submit_analysis("10.0.0.7",
                                        [&](const std::atomic<bool>& stop) {  // until released, 120 s at most
                                            analysing = true;
                                            const auto end = std::chrono::steady_clock::now() + 120s;
                                            while (!release && !stop && std::chrono::steady_clock::now() < end)
                                                std::this_thread::sleep_for(1ms);
                                            analysis_over = true;
                                        }),
              echecs::server::work::Scheduler::Refusal::None);
    for (int i = 0; i < 6000 && !analysing; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_TRUE(analysing) << "the analysis did not start within 60 s";
    ServiceOptions o;
    o.scheduler = &scheduler;
    auto service = std::make_unique<AccountService>(std::move(accounts_), o);
    service->handle(Endpoint::LogIn, login("10.0.0.1", "Ann", "battery staple 42"), answered("ann"));
    ASSERT_TRUE(wait_answers(1)) << "the log-in was not answered within 60 s beside the analysis";
    EXPECT_EQ(answer_of("ann").a.status, 200);
    EXPECT_FALSE(analysis_over) << "the log-in waited for the analysis";
    const auto waits = scheduler.take_waits();
    EXPECT_EQ(waits.hashes.count, 2u);  // the unknown names' hash, made once, and the log-in's
    EXPECT_EQ(waits.analyses.count, 1u);
    service.reset();  // before the scheduler, which it hashes on
    release = true;
}
