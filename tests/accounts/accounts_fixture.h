// A fresh Accounts on a temporary SQLite file, with the cheapest Argon2id
// cost (HashCost::minimal(): the tests hash hundreds of passwords) and a
// clock the test moves.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <random>
#include <string>

#include "server/accounts/accounts.h"

namespace echecs::server::accounts::testing {

class AccountsTest : public ::testing::Test {
protected:
    void SetUp() override {
        std::random_device rd;
        dir_ = std::filesystem::temp_directory_path() / ("echecs-accounts-" + std::to_string(rd()));
        std::filesystem::create_directories(dir_);
        path_ = (dir_ / "test.db").string();
        options_.cost = HashCost::minimal();
        open();
    }
    void TearDown() override {
        accounts_.reset();
        std::filesystem::remove_all(dir_);
    }
    void open() {
        accounts_.reset();
        accounts_ = std::make_unique<Accounts>(open_account_store(path_), options_, [this] { return now_; });
    }
    SessionInfo sign_up(const std::string& name, const std::string& ip = "10.0.0.1") {
        return accounts_->sign_up(name, "battery staple 42", ip, "");
    }
    // The error an operation throws (its reason), or "" when none.
    template <class F>
    static AccountError error_of(F f) {
        try {
            f();
        } catch (const AccountError& e) {
            return e;
        }
        return AccountError(echecs::server::Reason::internal, "no error");
    }

    std::filesystem::path dir_;
    std::string path_;
    AccountsOptions options_;
    std::int64_t now_ = 1'800'000'000'000;  // epoch ms
    std::unique_ptr<Accounts> accounts_;
};

}  // namespace echecs::server::accounts::testing
