// The priority of the server's background threads: heavy work (engine
// searches, password hashes, listings) runs nicer than the I/O thread and the
// thread that commits moves, so that on a machine whose cores it fills, a
// player's move still gets the CPU at once.
#pragma once

namespace echecs::platform {

// Lowers the calling thread's priority `nice` steps below the process's
// (capped at 19). Linux gives each thread its own nice value; elsewhere, and
// when the call fails, the thread keeps the process's priority. Raising
// one's niceness needs no privilege. Returns whether it was applied.
bool lower_this_thread(int nice);

}  // namespace echecs::platform
