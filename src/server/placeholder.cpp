#include <iostream>
#include "server/entry.h"
namespace echecs {
int serve_main(const std::vector<std::string>&) { std::cerr << "server not built yet\n"; return 1; }
}
