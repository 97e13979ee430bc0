#include <ostream>

#include "entry.h"
namespace echecs {
int match_main(const std::vector<std::string> &, std::ostream &out) {
    out << "not yet\n";
    return 1;
}
}  // namespace echecs
