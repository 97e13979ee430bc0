#include "server/accounts/account_service.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iterator>
#include <utility>

namespace echecs::server::accounts {

namespace {

HttpAnswer run_endpoint(Endpoint e, Accounts& a, const HttpIn& in) {
    switch (e) {
        case Endpoint::SignUp: return http_sign_up(a, in);
        case Endpoint::LogIn: return http_log_in(a, in);
        case Endpoint::LogOut: return http_log_out(a, in);
        case Endpoint::ChangePassword: return http_change_password(a, in);
        case Endpoint::DeleteAccount: return http_delete_account(a, in);
        case Endpoint::Me: return http_me(a, in);
        case Endpoint::User: return http_user(a, in);
        case Endpoint::UserGames: return http_user_games(a, in);
        case Endpoint::Leaderboard: return http_leaderboard(a, in);
    }
    return error_answer(ApiError(Reason::internal, "unknown endpoint"));
}

// The endpoints that hash a password: prepared on the accounts thread, hashed on a worker.
std::optional<HttpStaged> stage(Endpoint e, Accounts& a, const HttpIn& in) {
    switch (e) {
        case Endpoint::SignUp: return stage_sign_up(a, in);
        case Endpoint::LogIn: return stage_log_in(a, in);
        case Endpoint::ChangePassword: return stage_change_password(a, in);
        case Endpoint::DeleteAccount: return stage_delete_account(a, in);
        default: return std::nullopt;
    }
}

bool hashes_a_password(Endpoint e) {
    switch (e) {
        case Endpoint::SignUp:
        case Endpoint::LogIn:
        case Endpoint::ChangePassword:
        case Endpoint::DeleteAccount: return true;
        case Endpoint::LogOut:
        case Endpoint::Me:
        case Endpoint::User:
        case Endpoint::UserGames:
        case Endpoint::Leaderboard: return false;
    }
    return true;
}

// A request the queue refused (enqueue's reason).
AccountError refusal(Reason why) {
    if (why == Reason::too_many_requests)
        return rate_limited(Reason::too_many_requests, "too many account requests from this address at once", 1000);
    return ApiError(why, "the accounts service is busy: try again", "", {{"retry_after", 1}});
}

HttpAnswer busy(std::int64_t retry_after_s, const char* message) {
    return error_answer(ApiError(Reason::accounts_busy, message, "", {{"retry_after", retry_after_s}}));
}

}  // namespace

std::uint64_t AccountService::FairQueue::turn_for(const HashJob& j) const {
    std::uint64_t turn = 0;
    for (const std::string& k : {"a " + j.client, "n " + j.account})
        if (auto it = keys.find(k); it != keys.end()) turn = std::max(turn, it->second.first);
    return turn;
}

void AccountService::FairQueue::add(const HashPtr& j) {
    // Its turn is the later of its address's and its account's next one;
    // both move past it. A key holding nothing is forgotten (release): a new
    // address for a new account has turn 0, before everyone already served.
    j->turn = turn_for(*j);
    for (const std::string& k : {"a " + j->client, "n " + j->account}) {
        auto& [next, held] = keys[k];
        next = j->turn + 1;
        ++held;
    }
    waiting.emplace(std::make_pair(j->turn, j->seq), j);
}

void AccountService::FairQueue::release(const HashJob& j) {
    for (const std::string& k : {"a " + j.client, "n " + j.account})
        if (auto it = keys.find(k); it != keys.end() && --it->second.second == 0) keys.erase(it);
}

AccountService::AccountService(std::unique_ptr<Accounts> accounts, ServiceOptions options, Post post)
    : accounts_(std::move(accounts)), options_(std::move(options)), post_(std::move(post)) {
    scheduler_ = options_.scheduler;
    if (!scheduler_) {
        const int n = int(options_.hash_workers ? options_.hash_workers
                                                : std::clamp<std::size_t>(std::thread::hardware_concurrency(),
                                                                          std::size_t(1), std::size_t(8)));
        own_scheduler_ = std::make_unique<work::Scheduler>(work::Scheduler::Options{0, n, 0, 1, options_.hash_nice});
        scheduler_ = own_scheduler_.get();
    }
    workers_n_ = std::size_t(scheduler_->threads());
    // The unknown names' hash, made once on the scheduler rather than on the accounts thread.
    if (accounts_) {
        in_flight_ = 1;
        const bool queued = scheduler_->submit_hash(
            "",
            [this](const std::atomic<bool>&) {
                try {
                    (void)dummy_hash(accounts_->options().cost);
                } catch (...) {
                    // made again at the first log-in to an unknown name
                }
                std::lock_guard lock(mutex_);
                --in_flight_;
                drained_.notify_all();
            },
            this);
        if (!queued) in_flight_ = 0;
    }
    worker_ = std::thread([this] { loop(); });
}

AccountService::~AccountService() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
    // The hashes handed over and not started are taken back; those running end.
    const std::size_t withdrawn = scheduler_->withdraw(this);
    {
        std::unique_lock lock(mutex_);
        in_flight_ -= std::min(in_flight_, withdrawn);
        drained_.wait(lock, [&] { return in_flight_ == 0; });
    }
    std::deque<Job> left;
    left.swap(urgent_);
    for (std::deque<Job>* q : {&quick_, &staging_}) {
        left.insert(left.end(), std::make_move_iterator(q->begin()), std::make_move_iterator(q->end()));
        q->clear();
    }
    for (Job& j : left)
        if (j.refuse) j.refuse();
    std::vector<HashPtr> hashes(handed_.begin(), handed_.end());
    hashes.insert(hashes.end(), finished_.begin(), finished_.end());
    for (FairQueue* q : {&trusted_, &untrusted_})
        for (auto& [at, j] : q->waiting) hashes.push_back(j);
    for (const HashPtr& j : hashes) {
        auto done = j->done;
        deliver([done] {
            (*done)(error_answer(ApiError(Reason::accounts_stopping, "the server is stopping: try again")));
        });
    }
}

std::size_t AccountService::queued() const {
    std::lock_guard lock(mutex_);
    return http_waiting() + urgent_.size();
}

AccountService::HashWaits AccountService::take_hash_waits() {
    std::lock_guard lock(mutex_);
    return std::exchange(hash_waits_, {});
}

std::size_t AccountService::hashes_waiting() const {
    std::lock_guard lock(mutex_);
    return trusted_.waiting.size() + untrusted_.waiting.size();
}

void AccountService::deliver(std::function<void()> f) {
    if (post_)
        post_(std::move(f));
    else
        f();
}

bool AccountService::enqueue(Job job, bool bounded, bool stage_it, Reason* why) {
    {
        std::lock_guard lock(mutex_);
        if (stopping_) {
            *why = Reason::accounts_stopping;
            return false;
        }
        if (bounded) {
            if (http_waiting() >= options_.max_queue) {
                *why = Reason::accounts_busy;
                return false;
            }
            if (per_client_[job.client] >= options_.per_client) {
                *why = Reason::too_many_requests;
                return false;
            }
        }
        ++per_client_[job.client];
        // The server's own jobs (seats, results) go first: they never wait
        // behind a queue, and no job of this thread hashes.
        (!bounded ? urgent_ : stage_it ? staging_ : quick_).push_back(std::move(job));
    }
    wake_.notify_one();
    return true;
}

void AccountService::release(const HashJob& j) {
    (j.trusted ? trusted_ : untrusted_).release(j);
    if (auto it = per_client_.find(j.client); it != per_client_.end() && --it->second == 0) per_client_.erase(it);
}

void AccountService::answer(const HashPtr& j, HttpAnswer a) {
    {
        std::lock_guard lock(mutex_);
        release(*j);
    }
    auto done = j->done;
    deliver([done, a = std::move(a)]() mutable { (*done)(std::move(a)); });
}

HttpAnswer AccountService::busy_answer() const {
    // The untrusted queue's expected wait, in whole seconds.
    const double waiting = double(untrusted_.waiting.size() + hashing_);
    const auto s = std::int64_t(std::ceil(waiting * hash_ms_ / double(workers_n_) / 1000.0));
    return busy(std::max<std::int64_t>(1, s), "too many log-ins waiting: try again");
}

void AccountService::queue_hash(HashPtr j) {
    HashPtr refused;
    HttpAnswer refusal;
    {
        std::lock_guard lock(mutex_);
        j->seq = ++seq_;
        j->queued_at = std::chrono::steady_clock::now();
        FairQueue& q = j->trusted ? trusted_ : untrusted_;
        q.add(j);
        // Bounded: the latest turn is refused, the newcomer itself when it
        // is as late as every other (a flooder's next request, not a new address).
        if (!j->trusted && q.waiting.size() > options_.max_hash_waiting) {
            auto last = std::prev(q.waiting.end());
            refused = last->second;
            q.waiting.erase(last);
            refusal = busy_answer();
            ++hash_waits_.refused;
        }
    }
    wake_.notify_one();
    if (refused) answer(refused, std::move(refusal));
}

std::function<void()> AccountService::next_step() {
    for (std::deque<Job>* q : {&urgent_, &quick_}) {
        if (q == &quick_ && !finished_.empty()) {
            // A hash done: its answer (a session, a failure counted) before
            // the requests that hash nothing, all of them quick.
            HashPtr j = std::move(finished_.front());
            finished_.pop_front();
            return [this, j] { answer(j, j->staged.finish(*accounts_)); };
        }
        if (q->empty()) continue;
        auto job = std::make_shared<Job>(std::move(q->front()));
        q->pop_front();
        return [this, job] {
            try {
                job->run(*accounts_);
            } catch (...) {
                // every job catches its own errors; this keeps the thread alive regardless
            }
            std::lock_guard lock(mutex_);
            if (auto it = per_client_.find(job->client); it != per_client_.end() && --it->second == 0)
                per_client_.erase(it);
        };
    }
    // A worker free: the next hash, trusted ones first; its limits are
    // checked and the attempt counted now, when it is about to run.
    if (hashing_ < workers_n_)
        for (FairQueue* q : {&trusted_, &untrusted_}) {
            if (q->waiting.empty()) continue;
            HashPtr j = q->waiting.begin()->second;
            q->waiting.erase(q->waiting.begin());
            ++hashing_;
            return [this, j] {
                if (auto no = j->staged.admit(*accounts_)) {
                    {
                        std::lock_guard lock(mutex_);
                        --hashing_;
                    }
                    return answer(j, std::move(*no));
                }
                hand_over(j);
            };
        }
    if (!staging_.empty()) {
        auto job = std::make_shared<Job>(std::move(staging_.front()));
        staging_.pop_front();
        return [job, this] { job->run(*accounts_); };
    }
    return nullptr;
}

void AccountService::loop() {
    auto last_sweep = std::chrono::steady_clock::now();
    const auto every = std::chrono::milliseconds(options_.sweep_ms);
    for (;;) {
        std::function<void()> step;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, every, [&] {
                return stopping_ || !urgent_.empty() || !quick_.empty() || !finished_.empty() || !staging_.empty() ||
                       (hashing_ < workers_n_ && !(trusted_.waiting.empty() && untrusted_.waiting.empty()));
            });
            if (stopping_) return;
            step = next_step();
        }
        if (step) {
            try {
                step();
            } catch (...) {
                // every step answers its own errors; this keeps the thread alive regardless
            }
        }
        // Expired sessions are forgotten every sweep_ms, busy or not.
        if (std::chrono::steady_clock::now() - last_sweep >= every) {
            try {
                accounts_->sweep();
            } catch (const std::exception&) {
                // the database is away: try again at the next sweep
            }
            last_sweep = std::chrono::steady_clock::now();
        }
    }
}

void AccountService::hand_over(const HashPtr& j) {
    {
        std::lock_guard lock(mutex_);
        handed_.push_back(j);
        ++in_flight_;
    }
    const bool queued = scheduler_->submit_hash(
        j->client, [this, j](const std::atomic<bool>&) { hash(j); }, this);
    if (queued) return;
    {
        std::lock_guard lock(mutex_);
        std::erase(handed_, j);
        --in_flight_;
        --hashing_;
    }
    answer(j, error_answer(ApiError(Reason::accounts_stopping, "the server is stopping: try again")));
}

void AccountService::hash(const HashPtr& j) {
    {
        std::lock_guard lock(mutex_);
        std::erase(handed_, j);
        const auto waited = std::uint64_t(std::max<std::int64_t>(
            0, std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - j->queued_at)
                   .count()));
        ++hash_waits_.count;
        hash_waits_.total_ms += waited;
        hash_waits_.max_ms = std::max(hash_waits_.max_ms, waited);
    }
    if (options_.before_hash) options_.before_hash();
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<HttpAnswer> failed;
    try {
        j->staged.work->run();
    } catch (const std::exception& e) {
        failed = error_answer(ApiError(Reason::internal, std::string("internal error: ") + e.what()));
    }
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    {
        std::lock_guard lock(mutex_);
        --hashing_;
        hash_ms_ = 0.8 * hash_ms_ + 0.2 * ms;
        if (!failed) finished_.push_back(j);
    }
    if (failed) answer(j, std::move(*failed));
    wake_.notify_one();
    // Last: the destructor may go once this is zero.
    std::lock_guard lock(mutex_);
    --in_flight_;
    drained_.notify_all();
}

void AccountService::handle(Endpoint e, HttpIn in, std::function<void(HttpAnswer)> done) {
    auto shared_done = std::make_shared<std::function<void(HttpAnswer)>>(std::move(done));
    const std::string client = in.client_ip;
    const bool hashes = hashes_a_password(e);
    Job job;
    job.client = client;
    if (!hashes) {
        job.run = [this, e, in = std::move(in), shared_done](Accounts& a) {
            HttpAnswer answer = run_endpoint(e, a, in);
            deliver([shared_done, answer = std::move(answer)]() mutable { (*shared_done)(std::move(answer)); });
        };
    } else {
        // Prepared here (the database read, the limits), then its hash queued.
        job.run = [this, e, in = std::move(in), shared_done, client](Accounts& a) {
            std::optional<HttpStaged> s = stage(e, a, in);
            auto j = std::make_shared<HashJob>();
            j->client = client;
            j->done = shared_done;
            if (s->answer) {
                HttpAnswer answer = std::move(*s->answer);
                {
                    std::lock_guard lock(mutex_);
                    if (auto it = per_client_.find(client); it != per_client_.end() && --it->second == 0)
                        per_client_.erase(it);
                }
                return deliver(
                    [shared_done, answer = std::move(answer)]() mutable { (*shared_done)(std::move(answer)); });
            }
            j->account = s->account;
            j->trusted = s->trusted;
            j->staged = std::move(*s);
            queue_hash(std::move(j));
        };
    }
    job.refuse = [this, shared_done] {
        deliver([shared_done] {
            (*shared_done)(error_answer(ApiError(Reason::accounts_stopping, "the server is stopping: try again")));
        });
    };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), true, hashes, &why))
        deliver([shared_done, err = refusal(why)] { (*shared_done)(error_answer(err)); });
}

void AccountService::request(std::string client, std::function<HttpAnswer(Accounts&)> run,
                             std::function<void(HttpAnswer)> done) {
    auto shared_done = std::make_shared<std::function<void(HttpAnswer)>>(std::move(done));
    Job job;
    job.client = client;
    job.run = [this, run = std::move(run), shared_done](Accounts& a) {
        HttpAnswer answer = guarded_answer([&] { return run(a); });
        deliver([shared_done, answer = std::move(answer)]() mutable { (*shared_done)(std::move(answer)); });
    };
    job.refuse = [this, shared_done] {
        deliver([shared_done] {
            (*shared_done)(error_answer(ApiError(Reason::accounts_stopping, "the server is stopping: try again")));
        });
    };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), true, false, &why))
        deliver([shared_done, err = refusal(why)] { (*shared_done)(error_answer(err)); });
}

void AccountService::record_result(GameEnd game, ResultDone done) {
    auto shared_done = std::make_shared<ResultDone>(std::move(done));
    Job job;
    job.run = [this, game = std::move(game), shared_done](Accounts& a) {
        std::optional<RatingChanges> changes;
        std::optional<AccountError> error;
        try {
            changes = a.record_result(game);
        } catch (const AccountError& e) {
            error = e;
            // Recorded before a crash or a stop cut the game's marking short:
            // the changes then, for the game row.
            if (e.which == Reason::already_recorded) {
                try {
                    changes = a.recorded_changes(game.game_id);
                } catch (const std::exception&) {
                }
            }
        } catch (const std::exception& e) {
            error = ApiError(Reason::storage_failed, e.what());
        }
        deliver([shared_done, changes, error] { (*shared_done)(changes, error); });
    };
    job.refuse = [this, shared_done] {
        deliver([shared_done] {
            (*shared_done)(std::nullopt, ApiError(Reason::accounts_stopping, "the server is stopping"));
        });
    };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), false, false, &why))
        deliver([shared_done, why] { (*shared_done)(std::nullopt, ApiError(why, "the server is stopping")); });
}

void AccountService::session_account(std::string cookie_header, std::function<void(std::optional<Me>)> done) {
    auto shared_done = std::make_shared<std::function<void(std::optional<Me>)>>(std::move(done));
    Job job;
    job.run = [this, cookie = std::move(cookie_header), shared_done](Accounts& a) {
        std::optional<Me> me;
        try {
            if (auto secret = session_cookie(cookie)) me = a.who_am_i(*secret);
        } catch (const std::exception&) {
            // not logged in, or the database is away: an anonymous seat
        }
        deliver([shared_done, me] { (*shared_done)(me); });
    };
    job.refuse = [this, shared_done] { deliver([shared_done] { (*shared_done)(std::nullopt); }); };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), false, false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
}

void AccountService::seat_account(std::string cookie_header, std::string token, std::string variant, std::string speed,
                                  std::function<void(std::optional<SeatAccount>)> done) {
    auto shared_done = std::make_shared<std::function<void(std::optional<SeatAccount>)>>(std::move(done));
    Job job;
    job.run = [this, cookie = std::move(cookie_header), token = std::move(token), variant = std::move(variant),
               speed = std::move(speed), shared_done](Accounts& a) {
        std::optional<SeatAccount> seat;
        try {
            // A cookie that holds no well-formed session is no cookie: the token decides.
            seat = a.seat_account(session_cookie(cookie).value_or(""), token, variant, speed);
        } catch (const std::exception&) {
            // the database is away: an anonymous seat
        }
        deliver([shared_done, seat] { (*shared_done)(seat); });
    };
    job.refuse = [this, shared_done] { deliver([shared_done] { (*shared_done)(std::nullopt); }); };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), false, false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
}

void AccountService::token_account(std::string token, std::function<void(std::optional<std::int64_t>)> done) {
    auto shared_done = std::make_shared<std::function<void(std::optional<std::int64_t>)>>(std::move(done));
    Job job;
    job.run = [this, token = std::move(token), shared_done](Accounts& a) {
        std::optional<std::int64_t> id;
        try {
            id = a.token_account(token);
        } catch (const std::exception&) {
        }
        deliver([shared_done, id] { (*shared_done)(id); });
    };
    job.refuse = [this, shared_done] { deliver([shared_done] { (*shared_done)(std::nullopt); }); };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), false, false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
}

void AccountService::claim_games(std::int64_t account_id, std::vector<GameEnd> games, std::function<void(int)> done) {
    auto shared_done = std::make_shared<std::function<void(int)>>(std::move(done));
    Job job;
    job.run = [this, account_id, games = std::move(games), shared_done](Accounts& a) {
        int n = -1;
        try {
            n = a.claim_games(account_id, games);
        } catch (const std::exception&) {
        }
        deliver([shared_done, n] { (*shared_done)(n); });
    };
    job.refuse = [this, shared_done] { deliver([shared_done] { (*shared_done)(-1); }); };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), false, false, &why)) deliver([shared_done] { (*shared_done)(-1); });
}

}  // namespace echecs::server::accounts
