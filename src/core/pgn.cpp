// A read PGN game: its variant and start, its replay judged at each position
// by the rules, and the result its tags declare.
#include "pgn.h"

#include "notation.h"
#include "pgn_moves.h"
#include "pgn_tokens.h"
#include "utf8.h"

namespace echecs {

namespace {

std::string game_where(const PgnGame& g) {
    return "game " + std::to_string(g.index) + ", line " + std::to_string(g.line);
}

std::string move_where(const PgnGame& g, const PgnMove& m) {
    return "game " + std::to_string(g.index) + ", line " + std::to_string(m.line) + ", move " +
           std::to_string(m.number) + (m.side == WHITE ? ". " : "... ") + m.san;
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20)) return false;  // letters, spaces: enough for tag values
    return true;
}

// A sentence such as chess.com writes ("knightowl won on time", "Game drawn
// by repetition"): the first key word found.
Termination termination_in_sentence(std::string_view t) {
    std::string lower(t);
    for (char& c : lower)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    constexpr std::pair<std::string_view, Termination> WORDS[] = {
        {"time", Termination::TimeForfeit},
        {"resign", Termination::Resignation},
        {"agree", Termination::Agreement},
        {"abandon", Termination::Abandonment},
        {"repetition", Termination::Repetition},
        {"stalemate", Termination::Stalemate},
        {"insufficient", Termination::InsufficientMaterial},
        {"50", Termination::FiftyMoves},
        {"fifty", Termination::FiftyMoves},
        {"checkmate", Termination::Checkmate},
        {"adjudicat", Termination::Adjudication},
    };
    for (const auto& [word, term] : WORDS)
        if (lower.find(word) != std::string::npos) return term;
    return Termination::None;
}

}  // namespace

std::string PgnGame::tag(std::string_view name) const {
    for (const auto& [n, v] : tags)
        if (n == name) return v;
    return "";
}

Variant PgnGame::variant() const {
    const std::string v = tag("Variant");
    if (auto known = variant_from_pgn(v)) return *known;
    throw PgnError(
        game_where(*this) + ": unknown variant " + quote_input(v) + " (accepted: " + accepted_pgn_variant_names() + ")",
        {"pgn_variant_unknown",
         {{"game", std::to_string(index)}, {"line", std::to_string(line)}, {"variant", quote_input(v)}}});
}

std::string PgnGame::start_fen() const {
    std::string fen = tag("FEN");
    if (!fen.empty() && tag("SetUp") != "0") return fen;
    return std::string(Position::START_FEN);
}

std::unique_ptr<Game> start_game(const PgnGame& g) {
    const Variant v = g.variant();
    try {
        return std::make_unique<Game>(v, g.start_fen());
    } catch (const FenError& e) {
        std::string_view what = e.what();
        if (what.starts_with("FEN: ")) what.remove_prefix(5);
        ErrorDetail d{"pgn_fen_invalid",
                      {{"game", std::to_string(g.index)}, {"line", std::to_string(g.line)}, {"problem", e.detail.key}}};
        for (const auto& p : e.detail.params) d.params.push_back(p);
        throw PgnError(game_where(g) + ", FEN tag: " + std::string(what), std::move(d));
    }
}

GameResult declared_result(const PgnGame& g) {
    GameResult r;
    if (auto o = outcome_from_pgn(g.result)) r.outcome = *o;
    if (r.outcome == Outcome::Ongoing && g.result == "*" && !g.has_move_text) {
        if (auto o = outcome_from_pgn(g.tag("Result"))) r.outcome = *o;  // tags only: the Result tag
    }
    if (auto t = termination_from_name(g.tag("EchecsTermination"))) {
        r.termination = *t;
        return r;
    }
    const std::string t = g.tag("Termination");
    const bool decisive = r.outcome == Outcome::WhiteWins || r.outcome == Outcome::BlackWins;
    if (iequals(t, "time forfeit"))
        r.termination = Termination::TimeForfeit;
    else if (iequals(t, "abandoned"))
        r.termination = decisive ? Termination::Abandonment : Termination::Aborted;
    else if (iequals(t, "adjudication"))
        r.termination = Termination::Adjudication;
    else if (iequals(t, "rules infraction"))
        r.termination = Termination::RulesInfraction;
    else if (iequals(t, "normal") && decisive)
        r.termination = Termination::Resignation;  // not mate (the rules would have said so)
    else if (iequals(t, "normal") && r.outcome == Outcome::Draw)
        r.termination = Termination::Agreement;
    else if (auto named = termination_from_name(t))  // older echecs wrote the API name there
        r.termination = *named;
    else
        r.termination = termination_in_sentence(t);
    return r;
}

PgnReplay replay(const PgnGame& g, Game& game) {
    PgnReplay out;
    out.marker = g.result;
    const bool french = pgn_moves::writes_french(g, game.variant());
    std::size_t i = 0;
    for (; i < g.moves.size(); ++i) {
        const GameResult now = game.result();
        if (now.over()) break;
        const PgnMove& m = g.moves[i];
        try {
            const pgn_moves::Reading r = pgn_moves::read_move(game.position(), m.san, french);
            if (r.guessed) out.readings.push_back({int(i) + 1, m.san, to_san(game.position(), r.move)});
            game.play(r.move);
        } catch (const NotationError& e) {
            const char* key = e.kind == NotationError::Ambiguous ? "pgn_move_ambiguous"
                              : e.kind == NotationError::Illegal ? "pgn_move_illegal"
                                                                 : "pgn_move_unreadable";
            throw PgnError(move_where(g, m) + ": " + e.what(),
                           {key, pgn_tokens::pgn_move_params(g.index, m.line, m.number, m.side, m.san)});
        }
    }
    out.plies = int(i);
    out.ignored = int(g.moves.size() - i);
    const GameResult final_position = game.result();
    if (final_position.over()) {
        out.result = final_position;
        out.by_rules = true;
    } else {
        out.result = declared_result(g);
    }
    return out;
}

std::string PgnReplay::summary() const {
    std::string s(pgn_result(result.outcome));
    s += ' ';
    if (result.termination != Termination::None)
        s += termination_info(result.termination).reason;
    else
        s += result.over() ? "(no reason given)" : "unterminated";
    s += " after " + std::to_string(plies) + (plies == 1 ? " ply" : " plies");
    if (ignored > 0) s += "; " + std::to_string(ignored) + (ignored == 1 ? " more ply" : " more plies") + " ignored";
    if (!by_rules && result.over()) s += " (from the PGN)";
    if (marker != pgn_result(result.outcome)) s += " (the PGN says " + marker + ")";
    return s;
}

}  // namespace echecs
