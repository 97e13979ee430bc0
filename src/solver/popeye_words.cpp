#include "solver/popeye_words.h"

#include <array>
#include <cctype>

namespace echecs::solver::popeye_words {

namespace {

using W = std::string_view;
constexpr int LANGS = 3;

constexpr std::array<W, LANGS> BEGIN = {"DebutProbleme", "AnfangProblem", "beginproblem"};

constexpr std::array<std::array<W, 2>, LANGS> PROBLEM = {{
    {"FinProbleme", "asuivre"},
    {"EndeProblem", "WeiteresProblem"},
    {"endproblem", "nextproblem"},
}};

constexpr std::array<std::array<W, 2>, LANGS> END_TWIN = {{
    {"jumeau", "zeroposition"},
    {"Zwilling", "NullStellung"},
    {"twin", "zeroposition"},
}};

constexpr std::array<std::array<W, 16>, LANGS> INITIAL = {{
    {"remarque", "senonce", "auteur", "source", "pieces", "condition", "option", "enonce", "protocol", "\n", "titre",
     "LaTeX", "PiecesLaTeX", "prix", "PositionInitialePartie", "Forsyth"},
    {"Bemerkung", "sForderung", "Autor", "Quelle", "Steine", "Bedingung", "Option", "Forderung", "Protokoll", "\n",
     "Titel", "LaTeX", "LaTeXSteine", "Auszeichnung", "PartieAnfangsStellung", "Forsyth"},
    {"remark", "sstipulation", "author", "origin", "pieces", "condition", "option", "stipulation", "protocol", "\n",
     "title", "LaTeX", "LaTeXPieces", "award", "InitialGameArray", "Forsyth"},
}};

constexpr std::array<std::array<W, 39>, LANGS> OPTIONS = {{
    {"Defense",
     "Apparent",
     "ApparentSeul",
     "Variantes",
     "Trace",
     "Enroute",
     "SansRB",
     "Duplex",
     "SansRN",
     "Menace",
     "SansMenace",
     "Essais",
     "MaxSolutions",
     "MaxCasesFuites",
     "Search",
     "MultiSolutions",
     "NonSymetrique",
     "NonTrivial",
     "RetiensPieceMatante",
     "EnPassant",
     "SansEchiquier",
     "SansVariantesCourtes",
     "DemiDuplex",
     "ApresCle",
     "Intelligent",
     "MaxTemps",
     "SansRoquer",
     "Quodlibet",
     "FinApresSolutionsCourtes",
     "Bip",
     "SansGrille",
     "AjouteGrille",
     "RoquesMutuellementExclusifs",
     "ButEstFin",
     "optionnonpubliee",
     "CoupsVides",
     "JusquAuCoup",
     "TrivialEssaiSupprimer",
     "MatsEn1"},
    {"Widerlegung",
     "Satzspiel",
     "WeissBeginnt",
     "Varianten",
     "Zugnummern",
     "StartZugnummer",
     "OhneWk",
     "Duplex",
     "OhneSk",
     "Drohung",
     "OhneDrohung",
     "Verfuehrung",
     "MaxLoesungen",
     "MaxFluchtFelder",
     "Suchen",
     "MehrereLoesungen",
     "KeineSymmetrie",
     "NichtTrivial",
     "HalteMattsetzendenStein",
     "EnPassant",
     "OhneBrett",
     "OhneKurzVarianten",
     "HalbDuplex",
     "NachSchluessel",
     "Intelligent",
     "MaxZeit",
     "KeineRochade",
     "Quodlibet",
     "StopNachKurzloesungen",
     "Pieps",
     "OhneGitter",
     "ZeichneGitter",
     "RochadenGegenseitigAusschliessend",
     "ZielIstEnde",
     "nichtpublizierteoption",
     "NullZuege",
     "BisZugnummer",
     "TrivialeFehlversucheUnterdruecken",
     "MattsIn1"},
    {"Defence",
     "SetPlay",
     "WhiteToPlay",
     "Variations",
     "MoveNumbers",
     "StartMoveNumber",
     "NoWk",
     "Duplex",
     "NoBk",
     "Threat",
     "NoThreat",
     "Try",
     "MaxSolutions",
     "MaxFlightsquares",
     "Search",
     "MultiSolutions",
     "NoSymmetry",
     "NonTrivial",
     "KeepMatingPiece",
     "EnPassant",
     "NoBoard",
     "NoShortVariations",
     "HalfDuplex",
     "PostKeyPlay",
     "Intelligent",
     "MaxTime",
     "NoCastling",
     "Quodlibet",
     "StopOnShortSolutions",
     "Beep",
     "SuppressGrid",
     "WriteGrid",
     "CastlingMutuallyExclusive",
     "GoalIsEnd",
     "unpublishedoption",
     "NullMoves",
     "UpToMoveNumber",
     "TrivialTriesAvoid",
     "MatesIn1"},
}};

constexpr std::array<std::array<W, 4>, LANGS> COLOURS = {{
    {"Blanc", "Noir", "Neutre", "TotalInvisible"},
    {"Weiss", "Schwarz", "Neutral", "TotalUnsichtbar"},
    {"White", "Black", "Neutral", "TotalInvisible"},
}};

constexpr std::array<std::array<W, 13>, LANGS> TWINNING = {{
    {"deplacement", "echange", "enonce", "senonce", "ajoute", "ote", "enplus", "rotation", "condition",
     "CouleurEchange", "miroir", "translation", "remplace"},
    {"versetze", "tausche", "Forderung", "SForderung", "hinzufuegen", "entferne", "ferner", "Drehung", "Bedingung",
     "Farbwechsel", "Spiegelung", "Verschiebung", "ersetze"},
    {"move", "exchange", "stipulation", "sstipulation", "add", "remove", "continued", "rotate", "condition",
     "PolishType", "mirror", "shift", "substitute"},
}};

bool prefix_of(W word, W token) {
    if (token.size() > word.size()) return false;
    for (std::size_t i = 0; i < token.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(word[i])) != std::tolower(static_cast<unsigned char>(token[i])))
            return false;
    return true;
}

}  // namespace

int find(std::span<const W> words, W token) {
    if (token.empty()) return NONE;
    for (std::size_t i = 0; i < words.size(); ++i) {
        if (!prefix_of(words[i], token)) continue;
        if (token.size() == words[i].size()) return int(i);
        for (std::size_t j = i + 1; j < words.size(); ++j)
            if (prefix_of(words[j], token)) return AMBIGUOUS;
        return int(i);
    }
    return NONE;
}

std::optional<Language> language_of_begin(W token) {
    for (int l = 0; l < LANGS; ++l)
        if (find(std::span(&BEGIN[l], 1), token) == 0) return Language(l);
    return std::nullopt;
}

std::span<const W> problem_words(Language l) { return PROBLEM[int(l)]; }
std::span<const W> end_twin_words(Language l) { return END_TWIN[int(l)]; }
std::span<const W> initial_words(Language l) { return INITIAL[int(l)]; }
std::span<const W> option_words(Language l) { return OPTIONS[int(l)]; }
std::span<const W> colour_words(Language l) { return COLOURS[int(l)]; }
std::span<const W> twin_words(Language l) { return TWINNING[int(l)]; }

}  // namespace echecs::solver::popeye_words
