// The error table (server/api/reasons.h) against what documents and
// translates it: docs/API.md lists every reason with its code and HTTP status
// (and nothing the table does not hold), and the web client has a text for
// every reason in English and in French (web/src/i18n.ts). A reason added to
// the table, or a status changed, without the documents fails here.
#include "server/api/reasons.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "test_paths.h"

using namespace echecs::server;

namespace {

std::string read(const std::string& relative) {
    const std::string path = echecs::test::test_path(ECHECS_SOURCE_DIR) + "/" + relative;
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << "cannot read " << path;
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

struct Documented {
    int status;
    std::string code;
};

// The rows of API.md's "Every reason" table: | 400 | `bad_request` | `a`, `b` |
std::map<std::string, Documented> documented_reasons(const std::string& api) {
    std::map<std::string, Documented> out;
    const std::size_t start = api.find("### Every reason");
    EXPECT_NE(start, std::string::npos) << "docs/API.md has no section \"Every reason\"";
    if (start == std::string::npos) return out;
    std::size_t end = api.find("\n#", start + 1);
    if (end == std::string::npos) end = api.size();
    std::istringstream lines(api.substr(start, end - start));
    const std::regex row(R"(^\| (\d{3}) \| `([a-z0-9_]+)` \| (.*) \|$)");
    const std::regex name("`([a-z0-9_]+)`");
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, row)) continue;
        const int status = std::stoi(m[1]);
        const std::string code = m[2], names = m[3];
        for (std::sregex_iterator it(names.begin(), names.end(), name), e; it != e; ++it) {
            const std::string reason = (*it)[1];
            EXPECT_FALSE(out.count(reason)) << "docs/API.md lists " << reason << " twice";
            out[reason] = {status, code};
        }
    }
    return out;
}

}  // namespace

TEST(Reasons, NamesAndCodesAreSnakeCaseAndStatusesAreErrors) {
    const std::regex snake("[a-z]+(_[a-z0-9]+)*");
    for (const ReasonInfo& r : REASONS) {
        EXPECT_TRUE(std::regex_match(std::string(r.name), snake)) << r.name;
        EXPECT_GE(r.status, 400) << r.name;
        EXPECT_LT(r.status, 600) << r.name;
        EXPECT_EQ(reason_from_name(r.name), r.reason);
        EXPECT_EQ(http_status(ApiError(r.reason, "")), r.status);
        EXPECT_EQ(ApiError(r.reason, "").code, code_name(r.code));
    }
    EXPECT_EQ(reason_from_name("no_such_reason"), std::nullopt);
}

TEST(Reasons, ApiMdListsEveryReasonWithItsCodeAndStatus) {
    const std::map<std::string, Documented> doc = documented_reasons(read("docs/API.md"));
    for (const ReasonInfo& r : REASONS) {
        auto it = doc.find(std::string(r.name));
        if (it == doc.end()) {
            ADD_FAILURE() << "docs/API.md (Every reason) does not list " << r.name;
            continue;
        }
        EXPECT_EQ(it->second.status, r.status) << r.name;
        EXPECT_EQ(it->second.code, code_name(r.code)) << r.name;
    }
    for (const auto& [name, d] : doc)
        EXPECT_TRUE(reason_from_name(name)) << "docs/API.md lists " << name << ", which the server never sends";
}

TEST(Reasons, TheClientTranslatesEveryReasonInEnglishAndFrench) {
    const std::string i18n = read("web/src/i18n.ts");
    const std::size_t fr = i18n.find("\nconst fr");
    ASSERT_NE(fr, std::string::npos) << "web/src/i18n.ts: no French dictionary (const fr)";
    const std::string en_part = i18n.substr(0, fr), fr_part = i18n.substr(fr);
    ASSERT_NE(en_part.find("\nconst en"), std::string::npos) << "web/src/i18n.ts: no English dictionary (const en)";
    for (const ReasonInfo& r : REASONS) {
        const std::string key = "'err." + std::string(r.name) + "':";
        EXPECT_NE(en_part.find(key), std::string::npos) << "no English text for " << r.name << " (" << key << ")";
        EXPECT_NE(fr_part.find(key), std::string::npos) << "no French text for " << r.name << " (" << key << ")";
    }
}
