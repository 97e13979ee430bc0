// Names people choose (account names, anonymous players' nicknames),
// compared as people read them: Unicode's NFKC with case folding, then the
// confusable skeleton of UTS #39 (ICU's spoof checker). So "Аdmin" (a
// Cyrillic А), "ＣＯＭＰＵＴＥＲ" (full width) and "adrnin" (r, n for m) read as
// the names they imitate.
#pragma once

#include <string>
#include <string_view>

namespace echecs::server::accounts {

// The skeleton of a valid UTF-8 name: two names that look alike have the
// same one ("AnnLee", "annlee" and "AnnIee" do). "" for invalid UTF-8.
std::string name_skeleton(std::string_view name);

// A name the server shows for itself or for others, in any look-alike
// spelling, with any punctuation: the computer (and any name starting with
// computer, stockfish or echecs), admin, moderator, server..., and the
// names chat gives anonymous people (Guest-..., Invité-...).
bool reserved_name(std::string_view name);

}  // namespace echecs::server::accounts
