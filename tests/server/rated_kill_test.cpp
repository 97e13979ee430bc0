// Rated ends under SIGKILL and SIGTERM on SQLite (rated_kill.h; the same on
// PostgreSQL: postgres_server_test.cpp).
#include "rated_kill.h"

namespace {

TEST(RatedKill, AcknowledgedRatedEndsSurviveKillsOnSQLite) {
    echecs::test::TempDir dir;
    echecs::test::rated_kill::rated_ends_survive_kills((dir.path() / "kill.db").string());
}

}  // namespace
