// Swiss standings and their tie-breaks. Unplayed rounds (a bye, a forfeit
// either way, an absence) follow FIDE's virtual opponent rule (Congress 2009,
// kept in C.07 until 2023): the player is taken to have met an opponent with
// the player's own score before that round, who scored the opposite of the
// player's result that round and drew every later round; and in an opponent's
// score, the opponent's own unplayed rounds count as draws.
#include <algorithm>
#include <map>

#include "server/tournament/swiss.h"

namespace echecs::server::tournament {

std::vector<Standing> swiss_standings(const std::vector<CrossRow>& rows) {
    std::map<std::int64_t, const CrossRow*> by_id;
    for (const auto& r : rows) by_id[r.id] = &r;
    // Scores in half points; an opponent's unplayed rounds counted as draws (1).
    auto adjusted = [](const CrossRow& r) {
        int s = 0;
        for (const auto& e : r.rounds) s += e.kind == RoundKind::Played ? e.points2 : 1;
        return s;
    };
    std::vector<Standing> out;
    for (const auto& r : rows) {
        Standing st;
        st.id = r.id;
        const int n = static_cast<int>(r.rounds.size());
        std::vector<int> values;  // each round's opponent value, half points
        int before = 0, sb4 = 0;  // SB in quarter points: result (half points) x value (half points)
        for (int i = 0; i < n; ++i) {
            const RoundEntry& e = r.rounds[i];
            int v = 0;
            auto it = by_id.find(e.opponent);
            if (e.kind == RoundKind::Played && it != by_id.end())
                v = adjusted(*it->second);
            else  // the virtual opponent: before + (1 - result) + 0.5 per round after this one
                v = before + (2 - e.points2) + (n - 1 - i);
            values.push_back(v);
            sb4 += e.points2 * v;
            before += e.points2;
        }
        st.points2 = before;
        int bh = 0;
        for (int v : values) bh += v;
        st.buchholz = bh / 2.0;
        st.buchholz_cut1 = values.empty() ? 0 : (bh - *std::min_element(values.begin(), values.end())) / 2.0;
        st.sonneborn_berger = sb4 / 4.0;
        out.push_back(st);
    }
    std::sort(out.begin(), out.end(), [&](const Standing& a, const Standing& b) {
        if (a.points2 != b.points2) return a.points2 > b.points2;
        if (a.buchholz_cut1 != b.buchholz_cut1) return a.buchholz_cut1 > b.buchholz_cut1;
        if (a.buchholz != b.buchholz) return a.buchholz > b.buchholz;
        if (a.sonneborn_berger != b.sonneborn_berger) return a.sonneborn_berger > b.sonneborn_berger;
        int ra = by_id[a.id]->rating, rb = by_id[b.id]->rating;
        return ra != rb ? ra > rb : a.id < b.id;
    });
    return out;
}

}  // namespace echecs::server::tournament
