#include "server/storage_common.h"

namespace echecs::server {

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

Variant variant_from(std::string_view s) {
    if (s == "chess") return Variant::Chess;
    if (s == "alice") return Variant::Alice;
    if (s == "avalanche") return Variant::Avalanche;
    throw StorageError("unknown variant '" + std::string(s) + "'");
}

std::unique_ptr<Storage> open_storage(const std::string& url, bool durable) {
    if (url.starts_with("postgresql://") || url.starts_with("postgres://")) return open_postgres(url);
    return open_sqlite(url, durable);
}

}  // namespace echecs::server
