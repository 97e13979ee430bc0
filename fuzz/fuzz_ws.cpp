// WebSocket message handling: the typed-message parser and a GameRoom, with
// the hub in between, without sockets. The input is lines "<peer byte><text>":
// the byte picks White, Black, a spectator or a socket without a token; "$G"
// in the text is replaced by the id of the live game. Every message the
// server sends must be valid UTF-8 JSON; nothing may crash.
#include "server/play/game_room.h"
#include "server_harness.h"

using namespace echecs;

namespace {

struct Setup {
    fuzz::Harness harness;
    std::string white = "fuzzWhiteToken00000000", black = "fuzzBlackToken00000000";
    std::string game;
    std::shared_ptr<fuzz::Peer> peers[4];

    Setup() {
        for (int i = 0; i < 4; ++i) {
            peers[i] = std::make_shared<fuzz::Peer>(harness.hub().next_peer_id(), "10.0.0." + std::to_string(i));
            harness.hub().peer_opened(peers[i]);
        }
        say(0, R"({"type":"hello","token":")" + white + "\"}");
        say(1, R"({"type":"hello","token":")" + black + "\"}");
        say(2, R"({"type":"hello","token":"fuzzSpectator000000000"})");
        new_game();
    }

    void say(int who, const std::string& text, bool binary = false) {
        harness.hub().on_message(peers[who], text, binary);
        settle();
    }

    // Until the game's writes and loads have landed.
    void settle() {
        harness.settle([this] {
            server::GameRoom* room = harness.hub().find_room(game);
            return room && room->busy();
        });
    }

    // A fresh game between White and Black (the previous one may be over).
    void new_game() {
        static const char* times[] = {R"({"kind":"unlimited"})", R"({"kind":"realtime","minutes":1,"increment":1})",
                                      R"({"kind":"correspondence","days":1})"};
        static int n = 0;
        const char* variants[] = {"chess", "alice", "avalanche"};
        std::string body =
            std::string(R"({"color":"white","variant":")") + variants[n % 3] + R"(","time":)" + times[n % 3] + "}";
        ++n;
        std::string id = harness.start_game(body, white, black);
        if (id.empty()) return;
        game = id;
        for (int i = 0; i < 4; ++i) say(i, R"({"type":"join","game":")" + game + "\"}");
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Setup setup;
    if (size > 20000) return 0;
    fuzz::for_each_record(data, size, '\n', 64, setup.game, [](std::string line) {
        if (line.empty()) return;
        const int who = static_cast<unsigned char>(line[0]) % 4;
        setup.say(who, line.substr(1), (line[0] & 0xC0) == 0xC0);  // rarely: a binary frame
    });
    // A finished game: start another one now and then.
    if (server::GameRoom* room = setup.harness.hub().find_room(setup.game); !room || !room->game().live())
        setup.new_game();
    return 0;
}
