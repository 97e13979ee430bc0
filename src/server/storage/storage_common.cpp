#include "server/storage/storage_common.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace echecs::server {

FileLock::FileLock(const std::string& db_path) {
    // The lock is on the database file itself (its inode), so that a
    // symbolic or hard link to it, another path to the same file, finds it
    // taken. flock() does not touch SQLite's own fcntl() locks. "<path>.lock"
    // only names the holder's process for the message.
    const std::string note = db_path + ".lock";
    fd_ = ::open(db_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw StorageError("SQLite database '" + db_path + "': cannot open it: " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        std::string holder = "?";
        if (const int n = ::open(note.c_str(), O_RDONLY | O_CLOEXEC); n >= 0) {
            char pid[32] = {};
            const ssize_t got = ::pread(n, pid, sizeof pid - 1, 0);
            if (got > 0) holder.assign(pid, std::size_t(got));
            ::close(n);
        }
        while (!holder.empty() && (holder.back() == '\n' || holder.back() == ' ')) holder.pop_back();
        if (err == EWOULDBLOCK)
            throw StorageError("SQLite database '" + db_path + "' is in use by another echecs server (process " +
                               holder + "): one database, one server");
        throw StorageError("SQLite database '" + db_path + "': cannot lock it: " + std::strerror(err));
    }
    const std::string me = std::to_string(::getpid()) + "\n";
    if (const int n = ::open(note.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644); n >= 0) {
        // Only shown to a second server; the lock is what counts.
        if (::write(n, me.data(), me.size()) < 0) {
        }
        ::close(n);
    }
}

FileLock::~FileLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the flock
}

std::string_view time_kind_name(TimeControl::Kind k) {
    switch (k) {
        case TimeControl::Realtime: return "realtime";
        case TimeControl::Correspondence: return "correspondence";
        default: return "unlimited";
    }
}

TimeControl::Kind time_kind_from(std::string_view s) {
    if (s == "realtime") return TimeControl::Realtime;
    if (s == "correspondence") return TimeControl::Correspondence;
    if (s == "unlimited") return TimeControl::Unlimited;
    throw StorageError("unknown time control kind '" + std::string(s) + "'");
}

// The names are the core's (vocabulary.h); storage reads them exactly as it wrote them.
std::optional<Variant> variant_named(std::string_view s) {
    for (const VariantInfo& v : VARIANTS)
        if (v.name == s) return v.variant;
    return std::nullopt;
}

std::optional<Color> color_named(std::string_view s) {
    for (const ColorInfo& c : COLORS)
        if (c.name == s) return c.color;
    return std::nullopt;
}

Termination termination_named(std::string_view s) {
    for (const TerminationInfo& t : TERMINATIONS)
        if (t.api == s) return t.termination;
    return Termination::None;
}

Variant variant_from(std::string_view s) {
    if (auto v = variant_named(s)) return *v;
    throw StorageError("unknown variant '" + std::string(s) + "'");
}

}  // namespace echecs::server
