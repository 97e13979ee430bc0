// `echecs bench`: the search signature (total nodes of a fixed set of
// searches) and the speed figures.
#pragma once

#include <cstdint>

namespace echecs::engine {

// The node count `echecs bench` must print at one thread. A commit that
// changes the search's behaviour changes it here, and says so. Checked by
// the test Bench.SignatureIsTheCommittedOne.
constexpr std::uint64_t BENCH_SIGNATURE = 303881;

// Runs the signature searches (one thread, fresh 16 MB table each) and
// returns their total node count.
std::uint64_t bench_signature_nodes();

}  // namespace echecs::engine
