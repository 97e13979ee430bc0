#include "server/accounts/names.h"

#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/uspoof.h>

#include <array>
#include <memory>

namespace echecs::server::accounts {

namespace {

struct SpoofCloser {
    void operator()(USpoofChecker* sc) const { uspoof_close(sc); }
};

// One checker for the process: ICU's checker is safe to use from several
// threads once built (only its configuration is not).
const USpoofChecker* checker() {
    static const std::unique_ptr<USpoofChecker, SpoofCloser> sc = [] {
        UErrorCode status = U_ZERO_ERROR;
        std::unique_ptr<USpoofChecker, SpoofCloser> c(uspoof_open(&status));
        return U_SUCCESS(status) ? std::move(c) : nullptr;
    }();
    return sc.get();
}

// The skeleton without its combining marks (the skeleton is decomposed:
// "é" is "e" and an accent).
std::string unmarked_skeleton(std::string_view name) {
    const std::string sk = name_skeleton(name);
    const icu::UnicodeString u = icu::UnicodeString::fromUTF8(icu::StringPiece(sk.data(), int32_t(sk.size())));
    icu::UnicodeString out;
    for (int32_t i = 0; i < u.length();) {
        const UChar32 c = u.char32At(i);
        if (u_charType(c) != U_NON_SPACING_MARK) out.append(c);
        i += U16_LENGTH(c);
    }
    std::string s;
    out.toUTF8String(s);
    return s;
}

// The skeleton, lower case, with only its ASCII letters and digits: what
// the reserved words are compared with ("A.d.m.i.n", "ádmin" -> "admin").
std::string folded_key(std::string_view name) {
    std::string out;
    for (char c : unmarked_skeleton(name))
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
            out += c;
        else if (c >= 'A' && c <= 'Z')
            out += char(c - 'A' + 'a');
    return out;
}

constexpr std::array<std::string_view, 4> RESERVED_PREFIXES = {"computer", "ordinateur", "stockfish", "echecs"};
constexpr std::array<std::string_view, 18> RESERVED_WORDS = {
    "admin",   "administrator", "administrateur", "moderator", "moderateur", "mod",      "system", "systeme", "server",
    "serveur", "root",          "staff",          "support",   "official",   "officiel", "engine", "moteur",  "echecs"};

}  // namespace

std::string name_skeleton(std::string_view name) {
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfkc = icu::Normalizer2::getNFKCInstance(status);
    const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
    const USpoofChecker* sc = checker();
    if (U_FAILURE(status) || !sc) return std::string(name);  // ICU's data missing: compare as written
    const icu::UnicodeString in = icu::UnicodeString::fromUTF8(icu::StringPiece(name.data(), int32_t(name.size())));
    // The skeleton before and after case folding: "I" reads as "l" only in
    // upper case ("AnnIee"), "0" as "O" ("B0b"), and case must not matter.
    icu::UnicodeString first, second;
    uspoof_getSkeletonUnicodeString(sc, 0, nfkc->normalize(in, status), first, &status);
    uspoof_getSkeletonUnicodeString(sc, 0, nfkc_cf->normalize(first, status), second, &status);
    if (U_FAILURE(status)) return "";
    std::string out;
    second.toUTF8String(out);
    return out;
}

bool reserved_name(std::string_view written) {
    // In lower case first: the reserved words are, and a capital I reads as
    // an l only in capitals ("Invité-42" is not "lnvite").
    UErrorCode status = U_ZERO_ERROR;
    const icu::Normalizer2* nfkc_cf = icu::Normalizer2::getNFKCCasefoldInstance(status);
    std::string name(written);
    if (U_SUCCESS(status)) {
        const icu::UnicodeString in =
            icu::UnicodeString::fromUTF8(icu::StringPiece(written.data(), int32_t(written.size())));
        const icu::UnicodeString folded = nfkc_cf->normalize(in, status);
        if (U_SUCCESS(status)) {
            name.clear();
            folded.toUTF8String(name);
        }
    }
    const std::string key = folded_key(name);
    for (std::string_view p : RESERVED_PREFIXES)
        if (key.starts_with(folded_key(p))) return true;
    for (std::string_view w : RESERVED_WORDS)
        if (key == folded_key(w)) return true;
    // Chat names anonymous people Guest-xxxxxx (Invité- in French): "guest"
    // or "invite" alone, or followed by anything but a letter.
    const std::string sk = unmarked_skeleton(name);
    for (std::string_view g : {std::string_view("guest"), std::string_view("invite")}) {
        const std::string gk = unmarked_skeleton(g);
        if (!sk.starts_with(gk)) continue;
        const std::string_view rest = std::string_view(sk).substr(gk.size());
        if (rest.empty() || !((rest[0] >= 'a' && rest[0] <= 'z') || (rest[0] >= 'A' && rest[0] <= 'Z') ||
                              static_cast<unsigned char>(rest[0]) >= 0x80))
            return true;
    }
    return false;
}

}  // namespace echecs::server::accounts
