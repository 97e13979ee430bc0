// `echecs serve` options: the configuration file, the flags, which wins, and
// the error of every kind of bad input (the file's line and the key named).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/app/entry.h"
#include "test_paths.h"

namespace echecs::test {
namespace {

using serve::Settings;

std::string config_error(const std::string& text) {
    Settings s;
    return serve::apply_config(text, "echecs.conf", s);
}

TEST(ServeConfig, EveryKeyIsRead) {
    Settings s;
    const std::string text =
        "# a comment\n"
        "; another\n"
        "\n"
        "host = 0.0.0.0\n"
        "port=9000\n"
        "  db = \"/var/lib/echecs/my games.db\"  \n"
        "durable = yes\n"
        "web_root = /srv/web\n"
        "engine-threads = 3\n"
        "engine-queue = 10\n"
        "first-move-seconds = 45\n"
        "max-message = 4096\n"
        "rate-per-second = 2.5\n"
        "rate-burst = 8\n"
        "heartbeat-ms = 500\n"
        "quiet = true\r\n";
    ASSERT_EQ(serve::apply_config(text, "f", s), "");
    const auto& o = s.options;
    EXPECT_EQ(o.host, "0.0.0.0");
    EXPECT_EQ(o.port, 9000);
    EXPECT_EQ(o.db, "/var/lib/echecs/my games.db");
    EXPECT_TRUE(o.durable);
    EXPECT_EQ(o.web_root, "/srv/web");
    EXPECT_EQ(s.web_root_from, "f:8");
    EXPECT_EQ(o.engine_threads, 3);
    EXPECT_EQ(o.engine_queue, 10u);
    EXPECT_EQ(o.first_move_ms, 45000);
    EXPECT_EQ(o.max_message, 4096u);
    EXPECT_DOUBLE_EQ(o.rate_per_second, 2.5);
    EXPECT_DOUBLE_EQ(o.rate_burst, 8);
    EXPECT_EQ(o.heartbeat_ms, 500);
    EXPECT_FALSE(o.log);
}

TEST(ServeConfig, AnEmptyFileChangesNothing) {
    Settings s;
    ASSERT_EQ(serve::apply_config("", "f", s), "");
    ASSERT_EQ(serve::apply_config("\n\n# only comments\n", "f", s), "");
    const server::ServerOptions defaults;
    EXPECT_EQ(s.options.port, defaults.port);
    EXPECT_EQ(s.options.db, defaults.db);
    EXPECT_TRUE(s.web_root_from.empty());
}

TEST(ServeConfig, BadValuesNameTheFileLineAndKey) {
    EXPECT_EQ(config_error("port = 99999\n"), "echecs.conf:1: port: '99999' is not a whole number from 0 to 65535");
    EXPECT_EQ(config_error("\n\nport = 80x\n"), "echecs.conf:3: port: '80x' is not a whole number from 0 to 65535");
    EXPECT_EQ(config_error("port = -1"), "echecs.conf:1: port: '-1' is not a whole number from 0 to 65535");
    EXPECT_EQ(config_error("port = 99999999999999999999999"),
              "echecs.conf:1: port: '99999999999999999999999' is not a whole number from 0 to 65535");
    EXPECT_EQ(config_error("engine-threads = 0"),
              "echecs.conf:1: engine-threads: '0' is not a whole number from 1 to 64");
    EXPECT_EQ(config_error("first-move-seconds = 1.5"),
              "echecs.conf:1: first-move-seconds: '1.5' is not a whole number from 1 to 3600");
    EXPECT_EQ(config_error("public-url = echecs.example"),
              "echecs.conf:1: public-url: 'echecs.example' is not an http:// or https:// address");
    EXPECT_EQ(config_error("public-url = https:///x"),
              "echecs.conf:1: public-url: 'https:///x' is not an address (scheme://host[:port][/path])");
    EXPECT_EQ(
        config_error("public-url = https://echecs.example/a b"),
        "echecs.conf:1: public-url: 'https://echecs.example/a b' is not an address (scheme://host[:port][/path])");
    EXPECT_EQ(config_error("public-url = https://echecs.example:8443/"), "");
    EXPECT_EQ(config_error("rate-per-second = fast"),
              "echecs.conf:1: rate-per-second: 'fast' is not a number from 0.1 to 100000");
    EXPECT_EQ(config_error("rate-per-second = nan"),
              "echecs.conf:1: rate-per-second: 'nan' is not a number from 0.1 to 100000");
    EXPECT_EQ(config_error("durable = maybe"), "echecs.conf:1: durable: 'maybe' is not true or false");
    EXPECT_EQ(config_error("db ="), "echecs.conf:1: db: empty value");
    EXPECT_EQ(config_error("host = \"\""), "echecs.conf:1: host: empty value");
}

TEST(ServeConfig, BadLinesAreErrors) {
    EXPECT_EQ(config_error("host 127.0.0.1"), "echecs.conf:1: not a `key = value` line: 'host 127.0.0.1'");
    EXPECT_EQ(config_error("[server]\nport = 1"),
              "echecs.conf:1: not a `key = value` line: '[server]' (sections are not used)");
    EXPECT_EQ(config_error("= 3"), "echecs.conf:1: no key before '='");
    EXPECT_EQ(config_error("colour = blue"), "echecs.conf:1: unknown key 'colour' (echecs serve --help lists them)");
    EXPECT_EQ(config_error("port = 1\nport = 2\n"), "echecs.conf:2: port: set twice (first on line 1)");
    EXPECT_EQ(config_error(std::string("host = a\0b", 10)), "echecs.conf:1: NUL byte in the line");
    // The config keys are not the flags: no leading dashes.
    EXPECT_EQ(config_error("--port = 1"), "echecs.conf:1: unknown key '--port' (echecs serve --help lists them)");
}

TEST(ServeConfig, HostileInputIsAnErrorNotACrash) {
    EXPECT_NE(config_error(std::string(1 << 20, 'x')), "");
    EXPECT_NE(config_error(std::string(1 << 20, '=')), "");
    EXPECT_EQ(config_error("\xff\xfe = \xc3\x28").substr(0, 25), "echecs.conf:1: unknown ke");
    std::string many;
    for (int i = 0; i < 100000; ++i) many += "# comment\n";
    EXPECT_EQ(config_error(many + "port = x"), "echecs.conf:100001: port: 'x' is not a whole number from 0 to 65535");
}

struct TempFile {
    std::filesystem::path path;
    explicit TempFile(const std::string& text) {
        path = std::filesystem::temp_directory_path() /
               ("echecs-conf-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".conf");
        std::ofstream(path) << text;
    }
    ~TempFile() { std::filesystem::remove(path); }
};

std::string parse(const std::vector<std::string>& args, Settings& s) { return serve::parse_args(args, s); }

std::string parse_error(const std::vector<std::string>& args) {
    Settings s;
    return serve::parse_args(args, s);
}

TEST(ServeArgs, FlagsOverrideTheFileWhereverConfigStands) {
    TempFile f("port = 9000\nhost = 0.0.0.0\ndb = from-file.db\n");
    Settings s;
    ASSERT_EQ(parse({"--port", "9100", "--config", f.path.string(), "--db=flag.db", "--durable"}, s), "");
    EXPECT_EQ(s.options.port, 9100);
    EXPECT_EQ(s.options.host, "0.0.0.0");
    EXPECT_EQ(s.options.db, "flag.db");
    EXPECT_TRUE(s.options.durable);
    EXPECT_EQ(s.config, f.path.string());
}

TEST(ServeArgs, SwitchesAndValues) {
    Settings s;
    ASSERT_EQ(parse({"--quiet", "--durable=false", "--web-root", "/w", "--first-move-seconds=5"}, s), "");
    EXPECT_FALSE(s.options.log);
    EXPECT_FALSE(s.options.durable);
    EXPECT_EQ(s.options.web_root, "/w");
    EXPECT_EQ(s.web_root_from, "--web-root");
    EXPECT_EQ(s.options.first_move_ms, 5000);
}

TEST(ServeArgs, ErrorsNameTheFlag) {
    EXPECT_EQ(parse_error({"--port", "x"}), "--port: 'x' is not a whole number from 0 to 65535");
    EXPECT_EQ(parse_error({"--port"}), "--port needs a value");
    EXPECT_EQ(parse_error({"--colour", "blue"}), "unknown option '--colour' (echecs serve --help lists them)");
    EXPECT_EQ(parse_error({"--\x1b[2J"}), "unknown option '--\\x1b[2J' (echecs serve --help lists them)");
    EXPECT_EQ(parse_error({"8080"}), "unknown argument '8080'");
    EXPECT_EQ(parse_error({"--"}), "unknown argument '--'");
    EXPECT_EQ(parse_error({"--config"}), "--config needs a value");
    EXPECT_EQ(parse_error({"--config", "/nonexistent/echecs.conf"}),
              "cannot read the configuration file '/nonexistent/echecs.conf'");
    EXPECT_EQ(parse_error({"--config", "/tmp"}), "the configuration file '/tmp' is a directory");
    EXPECT_EQ(parse_error({"--config", "/dev/zero"}), "the configuration file '/dev/zero' is over 1 MiB");
    EXPECT_EQ(parse_error({"--config", "a", "--config", "b"}), "--config given twice");
    TempFile f("port = 1\nthreads = 2\n");
    EXPECT_EQ(parse_error({"--config", f.path.string()}),
              f.path.string() + ":2: unknown key 'threads' (echecs serve --help lists them)");
}

TEST(ServeArgs, HelpListsEveryOption) {
    Settings s;
    ASSERT_EQ(parse({"--port", "1", "--help"}, s), "");
    EXPECT_TRUE(s.help);
    const std::string u = serve::usage();
    EXPECT_NE(u.find("--config FILE"), std::string::npos);
    for (const std::string& k : serve::option_keys()) EXPECT_NE(u.find("--" + k), std::string::npos) << k;
}

// docs/SERVER.md documents every key (the table is the code's; the doc must follow it).
TEST(ServeArgs, ServerDocListsEveryKey) {
    std::ifstream in(echecs::test::test_path(ECHECS_SOURCE_DIR) + "/docs/SERVER.md");
    ASSERT_TRUE(in) << "docs/SERVER.md is missing";
    std::stringstream doc;
    doc << in.rdbuf();
    for (const std::string& k : serve::option_keys())
        EXPECT_NE(doc.str().find("`" + k + "`"), std::string::npos) << k << " is not in docs/SERVER.md";
}

}  // namespace
}  // namespace echecs::test
