#include "server/accounts/speed.h"

namespace echecs::server::accounts {

std::optional<Speed> speed_from_name(std::string_view name) {
    for (std::size_t i = 0; i < SPEED_NAMES.size(); ++i)
        if (SPEED_NAMES[i] == name) return Speed(i);
    return std::nullopt;
}

}  // namespace echecs::server::accounts
