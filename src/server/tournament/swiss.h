// Swiss tournaments: one round's pairing by the FIDE (Dutch) system, C.04.3
// as approved in 2016/2017, and the tie-breaks of the standings. Pure rules,
// no I/O: the tournament's room (not built yet, docs/TOURNAMENTS.md) keeps
// the state and the storage. Scores are in half points (a win 2) so that
// nothing is compared in floating point.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace echecs::server::tournament {

enum class Colour : std::uint8_t { None, White, Black };  // None: no game over the board that round
enum class Float : std::uint8_t { None, Down, Up };

// A player as the pairing of the next round sees them.
struct SwissPlayer {
    std::int64_t id = 0;
    int rating = 0;                       // with id, the initial order (pairing numbers)
    int points2 = 0;                      // points so far, in half points
    std::vector<Colour> colours;          // one per past round; None for a bye, a forfeit, an absence
    std::vector<Float> floats;            // one per past round, as pair_dutch returned them
    std::vector<std::int64_t> opponents;  // met over the board (a forfeited game does not count)
    bool bye_received = false;            // a pairing-allocated bye or a forfeit win: no bye again (C.2)
};

struct DutchOptions {
    int round = 1;                          // the round being paired, from 1
    int total_rounds = 1;                   // the last round relaxes colours for topscorers (A.7, C.3)
    Colour initial_colour = Colour::White;  // drawn before round 1: the colour of pairing number 1
};

struct DutchPairing {
    std::vector<std::pair<std::int64_t, std::int64_t>> games;  // (white, black), first board first
    std::int64_t bye = 0;                                      // 0: nobody (an even number)
    std::vector<std::pair<std::int64_t, Float>> floats;        // this round's float of each player
};

// The pairing of one round, or nullopt when no pairing respects the absolute
// criteria (no rematch, no second bye, no two non-topscorers with the same
// absolute colour preference). When one exists it is always found.
std::optional<DutchPairing> pair_dutch(const std::vector<SwissPlayer>& players, const DutchOptions& options);

// The colour preference of a player (A.6) from their colour history.
enum class Strength : std::uint8_t { None, Mild, Strong, Absolute };
struct ColourPreference {
    Colour colour = Colour::None;
    Strength strength = Strength::None;
};
ColourPreference colour_preference(const std::vector<Colour>& history);

// ---- Tie-breaks -------------------------------------------------------------

enum class RoundKind : std::uint8_t { Played, PairingBye, ForfeitWin, ForfeitLoss, Absent };
struct RoundEntry {
    RoundKind kind = RoundKind::Played;
    std::int64_t opponent = 0;  // Played only
    int points2 = 0;            // what the player scored that round, in half points
};
struct CrossRow {
    std::int64_t id = 0;
    int rating = 0;
    std::vector<RoundEntry> rounds;  // one per round played so far, same length for everyone
};

struct Standing {
    std::int64_t id = 0;
    int points2 = 0;
    double buchholz = 0;
    double buchholz_cut1 = 0;
    double sonneborn_berger = 0;
};

// The standings, first place first: points, Buchholz Cut-1, Buchholz,
// Sonneborn-Berger, then the initial order (rating, then id). Unplayed
// rounds are counted with FIDE's virtual opponent (docs/TOURNAMENTS.md).
std::vector<Standing> swiss_standings(const std::vector<CrossRow>& rows);

}  // namespace echecs::server::tournament
