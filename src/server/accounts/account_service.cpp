#include "server/accounts/account_service.h"

#include <algorithm>
#include <chrono>
#include <iterator>

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

}  // namespace

AccountService::AccountService(std::unique_ptr<Accounts> accounts, ServiceOptions options, Post post)
    : accounts_(std::move(accounts)), options_(options), post_(std::move(post)) {
    worker_ = std::thread([this] { loop(); });
}

AccountService::~AccountService() {
    std::deque<Job> left;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    worker_.join();
    left.swap(urgent_);
    left.insert(left.end(), std::make_move_iterator(quick_.begin()), std::make_move_iterator(quick_.end()));
    quick_.clear();
    for (const std::string& client : turn_)
        for (Job& j : hashing_[client]) left.push_back(std::move(j));
    hashing_.clear();
    turn_.clear();
    served_.clear();
    for (Job& j : left)
        if (j.refuse) j.refuse();
}

std::size_t AccountService::queued() const {
    std::lock_guard lock(mutex_);
    return http_waiting() + urgent_.size();
}

void AccountService::deliver(std::function<void()> f) {
    if (post_)
        post_(std::move(f));
    else
        f();
}

bool AccountService::enqueue(Job job, bool bounded, Reason* why) {
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
        // behind a queue of Argon2id hashes, only behind the one running.
        if (!bounded) {
            urgent_.push_back(std::move(job));
        } else if (!job.hashes) {
            quick_.push_back(std::move(job));
        } else {
            std::deque<Job>& mine = hashing_[job.client];
            if (mine.empty()) {
                // An address not yet served since it began asking goes before
                // those already served (after the other new ones): a real
                // log-in waits one hash, not one per flooding address.
                auto at = served_.count(job.client)
                              ? turn_.end()
                              : std::find_if(turn_.begin(), turn_.end(),
                                             [this](const std::string& c) { return served_.count(c) > 0; });
                turn_.insert(at, job.client);
            }
            mine.push_back(std::move(job));
            ++hash_waiting_;
        }
    }
    wake_.notify_one();
    return true;
}

std::optional<AccountService::Job> AccountService::next_job() {
    for (std::deque<Job>* q : {&urgent_, &quick_}) {
        if (q->empty()) continue;
        Job job = std::move(q->front());
        q->pop_front();
        return job;
    }
    if (turn_.empty()) return std::nullopt;
    // One hash of the address whose turn it is; it goes to the back of the
    // line if it has more.
    const std::string client = std::move(turn_.front());
    turn_.pop_front();
    std::deque<Job>& mine = hashing_[client];
    Job job = std::move(mine.front());
    mine.pop_front();
    --hash_waiting_;
    served_.insert(client);
    if (mine.empty())
        hashing_.erase(client);
    else
        turn_.push_back(client);
    return job;
}

void AccountService::loop() {
    auto last_sweep = std::chrono::steady_clock::now();
    const auto every = std::chrono::milliseconds(options_.sweep_ms);
    for (;;) {
        std::optional<Job> job;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_for(lock, every, [&] { return stopping_ || !urgent_.empty() || http_waiting() > 0; });
            if (stopping_) return;
            job = next_job();
        }
        if (job) {
            try {
                job->run(*accounts_);
            } catch (...) {
                // every job catches its own errors; this keeps the worker alive regardless
            }
            std::lock_guard lock(mutex_);
            if (auto it = per_client_.find(job->client); it != per_client_.end() && --it->second == 0) {
                per_client_.erase(it);
                served_.erase(job->client);  // holds nothing: new again
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

void AccountService::handle(Endpoint e, HttpIn in, std::function<void(HttpAnswer)> done) {
    auto shared_done = std::make_shared<std::function<void(HttpAnswer)>>(std::move(done));
    const std::string client = in.client_ip;
    Job job;
    job.client = client;
    job.hashes = hashes_a_password(e);
    job.run = [this, e, in = std::move(in), shared_done](Accounts& a) {
        HttpAnswer answer = run_endpoint(e, a, in);
        deliver([shared_done, answer = std::move(answer)]() mutable { (*shared_done)(std::move(answer)); });
    };
    job.refuse = [this, shared_done] {
        deliver([shared_done] {
            (*shared_done)(error_answer(ApiError(Reason::accounts_stopping, "the server is stopping: try again")));
        });
    };
    Reason why = Reason::internal;
    if (!enqueue(std::move(job), true, &why)) {
        const AccountError err =
            why == Reason::too_many_requests
                ? rate_limited(Reason::too_many_requests, "too many account requests from this address at once", 1000)
                : ApiError(why, "the accounts service is busy: try again", "", {{"retry_after", 1}});
        deliver([shared_done, err] { (*shared_done)(error_answer(err)); });
    }
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
    if (!enqueue(std::move(job), false, &why))
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
    if (!enqueue(std::move(job), false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
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
    if (!enqueue(std::move(job), false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
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
    if (!enqueue(std::move(job), false, &why)) deliver([shared_done] { (*shared_done)(std::nullopt); });
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
    if (!enqueue(std::move(job), false, &why)) deliver([shared_done] { (*shared_done)(-1); });
}

}  // namespace echecs::server::accounts
