// The messages a node reads from the other nodes (docs/CLUSTER.md): what
// arrives on its Redis channels, handed to Cluster::receive without Redis.
// The input is records separated by 0x1E, each one message (a JSON header
// line, then the body: a client's message, an HTTP body, a server's
// message); "$G" is replaced by the id of a live game this node runs. Hostile
// or broken messages from a node must never crash the node nor break the
// game; every answer to a real socket must be valid UTF-8 JSON.
#include "server/cluster/cluster.h"
#include "server/play/game_room.h"
#include "server_harness.h"

using namespace echecs;

namespace {

struct Setup {
    fuzz::Harness harness{[](server::ServerOptions& o) {
        o.cluster_node = "fuzz";
        o.redis = "";  // no bus: what it would publish goes nowhere
    }};
    std::string white = "fuzzWhiteToken00000000", black = "fuzzBlackToken00000000";
    std::string game;
    std::shared_ptr<fuzz::Peer> own;  // a socket of this node, watching the game

    Setup() {
        // The node takes the lobby's lease at its first tick.
        harness.run_until([this] { return cluster().leader(); }, std::chrono::milliseconds(10000));
        fuzz::check(cluster().leader(), "the fuzz node did not take the lobby's lease within 10 s");
        own = std::make_shared<fuzz::Peer>(harness.hub().next_peer_id(), "10.0.0.9");
        harness.hub().peer_opened(own);
        harness.hub().on_message(own, R"({"type":"hello","token":"fuzzOwnSocket0000000000"})", false);
        new_game();
    }

    server::Cluster& cluster() { return *harness.hub().cluster(); }

    void settle() {
        harness.settle([this] {
            server::GameRoom* room = harness.hub().find_room(game);
            return room && room->busy();
        });
    }

    void new_game() {
        std::string id = harness.start_game(R"({"color":"white","time":{"kind":"unlimited"}})", white, black);
        if (id.empty()) return;
        game = id;
        harness.hub().on_message(own, R"({"type":"join","game":")" + game + "\"}", false);
        settle();
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static Setup setup;
    if (size > 20000) return 0;
    fuzz::for_each_record(data, size, '\x1e', 64, setup.game, [](std::string text) {
        setup.cluster().receive(std::move(text));
        setup.settle();
    });
    if (server::GameRoom* room = setup.harness.hub().find_room(setup.game); !room || !room->game().live())
        setup.new_game();
    return 0;
}
