#include "platform/thread_priority.h"

#include <algorithm>
#include <cerrno>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace echecs::platform {

bool lower_this_thread(int nice) {
#ifdef __linux__
    if (nice <= 0) return false;
    // Relative to the process: a server started under `nice 10` keeps its
    // threads' order (an absolute value below the process's would fail).
    errno = 0;
    const int base = getpriority(PRIO_PROCESS, 0);
    if (errno != 0) return false;
    return setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), std::min(19, base + nice)) == 0;
#else
    (void)nice;
    return false;
#endif
}

}  // namespace echecs::platform
