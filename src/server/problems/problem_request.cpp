#include "server/problems/problem_request.h"

#include "core/position.h"
#include "core/utf8.h"
#include "core/vocabulary.h"
#include "server/api/game_names.h"
#include "solver/popeye.h"
#include "solver/stipulation.h"

namespace echecs::problems {

using nlohmann::json;
using server::ApiError;
using server::Reason;

namespace {

const json* field(const json& body, const char* name) {
    auto it = body.find(name);
    return it == body.end() || it->is_null() ? nullptr : &*it;
}

std::string text_field(const json& body, const char* name, std::size_t max, bool required) {
    const json* f = field(body, name);
    if (!f) {
        if (required) throw ApiError(Reason::missing, std::string(name) + ": missing", name);
        return "";
    }
    if (!f->is_string()) throw ApiError(Reason::not_text, std::string(name) + ": must be a string", name);
    const std::string& s = f->get_ref<const std::string&>();
    if (s.size() > max)
        throw ApiError(Reason::too_long, std::string(name) + ": longer than " + std::to_string(max) + " bytes", name);
    if (!is_valid_utf8(s)) throw ApiError(Reason::bad_utf8, std::string(name) + ": not valid UTF-8", name);
    return s;
}

bool flag(const json& body, const char* name, bool fallback) {
    const json* f = field(body, name);
    if (!f) return fallback;
    if (!f->is_boolean()) throw ApiError(Reason::not_boolean, std::string(name) + ": must be true or false", name);
    return f->get<bool>();
}

double number(const json& body, const char* name, double lo, double hi) {
    const json* f = field(body, name);
    if (!f) return 0;
    if (!f->is_number()) throw ApiError(Reason::not_number, std::string(name) + ": must be a number", name);
    const double v = f->get<double>();
    if (!(v >= lo && v <= hi))
        throw ApiError(
            Reason::out_of_range,
            std::string(name) + ": must be between " + std::to_string(int(lo)) + " and " + std::to_string(int(hi)),
            name);
    return v;
}

// Popeye's castlingmutuallyexclusive: ["a1h8", ...], a white rook's home
// square then a black one's (solver::Problem::exclusive_castlings).
std::vector<std::pair<Square, Square>> exclusive_castlings(const json& body) {
    static constexpr const char* NAME = "exclusive_castlings";
    const json* f = field(body, NAME);
    if (!f) return {};
    if (!f->is_array())
        throw ApiError(Reason::not_text, "exclusive_castlings: must be a list of texts like \"a1h8\"", NAME);
    if (f->size() > 4) throw ApiError(Reason::too_long, "exclusive_castlings: at most 4 pairs", NAME);
    std::vector<std::pair<Square, Square>> out;
    for (const json& pair : *f) {
        if (!pair.is_string())
            throw ApiError(Reason::not_text, "exclusive_castlings: must be a list of texts like \"a1h8\"", NAME);
        const std::string& t = pair.get_ref<const std::string&>();
        if (t != "a1a8" && t != "a1h8" && t != "h1a8" && t != "h1h8")
            throw ApiError(Reason::out_of_range,
                           "exclusive_castlings: \"" + replace_invalid_utf8(t.substr(0, 16)) +
                               "\" is not a white rook's home square (a1, h1) then a black one's (a8, h8)",
                           NAME);
        out.emplace_back(make_square(t[0] - 'a', 0), make_square(t[2] - 'a', 7));
    }
    return out;
}

// {"problem": key, its parameters...}: the client says the error in the
// user's language from these (docs/API.md, "Parameters of an error").
json detail_params(const ErrorDetail& d) {
    json params = json::object();
    if (d.key.empty()) return params;
    params["problem"] = d.key;
    for (const auto& [k, v] : d.params) params[k] = replace_invalid_utf8(v);  // a cut stipulation may end mid-character
    return params;
}

solver::Problem read_problem(const json& body) {
    if (!body.is_object()) throw ApiError(Reason::not_object, "the request must be a JSON object");
    solver::Problem p;
    const std::string v = text_field(body, "variant", 32, false);
    if (!v.empty()) {
        p.variant = server::read_variant(v);
    }
    p.fen = text_field(body, "fen", MAX_FEN_BYTES, true);
    const std::string s = text_field(body, "stipulation", 16, true);
    try {
        p.stipulation = solver::parse_stipulation(s);
    } catch (const solver::StipulationError& e) {
        throw ApiError(Reason::bad_stipulation, e.what(), "stipulation", detail_params(e.detail));
    }
    // Popeye's halfduplex: the colours exchange their parts (an h#2 where White starts and Black mates).
    p.stipulation.exchanged = flag(body, "halfduplex", false);
    if (p.stipulation.exchanged && p.stipulation.proof())
        throw ApiError(
            Reason::bad_stipulation,
            "halfduplex: the colours' parts are exchanged only in mates and stalemates, not in " + p.stipulation.str(),
            "halfduplex");
    // Popeye's postkeyplay: the diagram is the position after the key (battle play only).
    p.stipulation.post_key = flag(body, "postkey", false);
    if (p.stipulation.post_key && !p.stipulation.battle())
        throw ApiError(Reason::bad_stipulation,
                       "postkey: the play after a key exists only in battle play (#n, s#n, r#n, semi-r#n, =n), not "
                       "in " +
                           p.stipulation.str(),
                       "postkey");
    // Popeye's "threat n": each attacker's move must threaten to win within n (0: no such rule).
    p.stipulation.max_threat = int(number(body, "threat", 0, solver::Stipulation::MAX_MOVES));
    if (p.stipulation.max_threat > 0 && !p.stipulation.battle())
        throw ApiError(Reason::bad_stipulation,
                       "threat: a bound on threats exists only in battle play (#n, s#n, r#n, semi-r#n, =n), not in " +
                           p.stipulation.str(),
                       "threat");
    // Popeye's "maxflightsquares n": a defender whose king has more than n flights has defended (absent: none).
    if (field(body, "maxflights")) {
        p.stipulation.max_flights = int(number(body, "maxflights", 0, 64));
        if (!p.stipulation.battle())
            throw ApiError(Reason::bad_stipulation,
                           "maxflights: a bound on the king's flights exists only in battle play (#n, s#n, r#n, "
                           "semi-r#n, =n), not in " +
                               p.stipulation.str(),
                           "maxflights");
    }
    p.exclusive_castlings = exclusive_castlings(body);
    if (!p.exclusive_castlings.empty() && p.stipulation.proof())
        throw ApiError(Reason::bad_stipulation,
                       "exclusive_castlings: not supported in proof games (" + p.stipulation.str() + ")",
                       "exclusive_castlings");
    if (p.stipulation.moves > MAX_SOLVE_MOVES)
        throw ApiError(Reason::stipulation_too_long,
                       "stipulation: at most " + std::to_string(MAX_SOLVE_MOVES) + " moves on this server",
                       "stipulation");
    p.kings = p.stipulation.kings();
    // The diagram is checked here, so that a bad one is refused before it is queued.
    try {
        StateInfo st;
        Position pos;
        pos.set(p.variant, p.fen, st, p.kings);
    } catch (const FenError& e) {
        throw ApiError(Reason::bad_fen, e.what(), "fen", detail_params(e.detail));
    }
    p.title = text_field(body, "title", MAX_TITLE_BYTES, false);
    return p;
}

}  // namespace

SolveRequest read_solve_request(const json& body) {
    SolveRequest r;
    r.problem = read_problem(body);
    r.tries = flag(body, "tries", false);
    r.set_play = flag(body, "set_play", false);
    r.threats = flag(body, "threats", true);
    r.max_solutions = int(number(body, "max_solutions", 0, MAX_SOLUTIONS));
    r.timeout_seconds = number(body, "timeout", 0, 3600);
    return r;
}

json popeye_export(const json& body) {
    const solver::Problem p = read_problem(body);
    solver::PopeyeWriteOptions o;
    o.tries = flag(body, "tries", false);
    o.set_play = flag(body, "set_play", false);
    o.threats = flag(body, "threats", true);
    try {
        return {{"popeye", solver::write_popeye(p, o)}};
    } catch (const solver::ProblemError& e) {
        throw ApiError(Reason::bad_fen, e.what(), "fen");
    }
}

namespace {
json castling_pairs(const solver::Problem& p) {
    json out = json::array();
    for (auto [w, b] : p.exclusive_castlings)
        out.push_back(std::string{char('a' + file_of(w)), '1', char('a' + file_of(b)), '8'});
    return out;
}
}  // namespace

json popeye_import(const json& body) {
    if (!body.is_object()) throw ApiError(Reason::not_object, "the request must be a JSON object");
    const std::string text = text_field(body, "text", solver::POPEYE_MAX_BYTES, true);
    std::vector<solver::PopeyeProblem> read;
    try {
        read = solver::read_popeye(text);
    } catch (const solver::PopeyeError& e) {
        throw ApiError(Reason::bad_popeye, e.what(), "text");
    } catch (const solver::ProblemError& e) {
        throw ApiError(Reason::bad_popeye, e.what(), "text");
    }
    json problems = json::array();
    for (const solver::PopeyeProblem& pp : read) {
        json twins = json::array();
        for (std::size_t i = 0; i < pp.twins.size(); ++i) {
            const solver::Problem& t = pp.twins[i];
            // duplex: each twin, then the same with the parts exchanged (the reader makes both)
            twins.push_back({{"label", i < pp.twin_labels.size() ? pp.twin_labels[i] : ""},
                             {"variant", variant_name(t.variant)},
                             {"fen", t.fen},
                             {"stipulation", t.stipulation.str()},
                             {"halfduplex", t.stipulation.exchanged},
                             {"postkey", t.stipulation.post_key},
                             {"threat", t.stipulation.max_threat},
                             {"maxflights", t.stipulation.max_flights == solver::Stipulation::NO_MAX_FLIGHTS
                                                ? json(nullptr)
                                                : json(t.stipulation.max_flights)},
                             {"exclusive_castlings", castling_pairs(t)}});
        }
        problems.push_back({{"title", pp.twins.empty() ? "" : pp.twins.front().title},
                            {"twins", std::move(twins)},
                            {"tries", pp.tries},
                            {"set_play", pp.set_play},
                            {"threats", pp.threats},
                            {"max_solutions", pp.max_solutions}});
    }
    return {{"problems", std::move(problems)}};
}

}  // namespace echecs::problems
