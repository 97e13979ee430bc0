// A driver for the fuzz targets without libFuzzer, for the test command: it
// runs every seed of the given directories through LLVMFuzzerTestOneInput,
// then random mutations of them (bytes flipped, inserted, erased, seeds
// spliced; fixed random seed) until SECONDS have passed. No coverage
// guidance: the long runs are libFuzzer's (fuzz/run.sh); this one shows, in
// every build the tests run (ASan + UBSan included), that the targets still
// hold on their corpus and near it.
//   fuzz_<target>_smoke SECONDS DIR...
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run(const std::string& input) {
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

std::string mutate(std::string s, const std::vector<std::string>& seeds, std::mt19937& rng) {
    const int edits = 1 + int(rng() % 4);
    for (int e = 0; e < edits; ++e) {
        const std::size_t at = s.empty() ? 0 : rng() % s.size();
        switch (rng() % 5) {
            case 0:
                if (!s.empty()) s[at] = char(s[at] ^ (1 << (rng() % 8)));
                break;
            case 1: s.insert(s.begin() + long(at), char(rng())); break;
            case 2:
                if (!s.empty()) s.erase(at, 1 + rng() % 8);
                break;
            case 3: {  // a piece of another seed
                const std::string& o = seeds[rng() % seeds.size()];
                if (o.empty()) break;
                const std::size_t from = rng() % o.size();
                s.insert(at, o.substr(from, 1 + rng() % 32));
                break;
            }
            default:  // an interesting byte
                if (!s.empty()) s[at] = "\0\n\"\\{}[]:,\xc3\xff\x7f"[rng() % 13];
        }
    }
    return s;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s SECONDS DIR...\n", argv[0]);
        return 2;
    }
    const double seconds = std::atof(argv[1]);
    std::vector<std::string> seeds;
    for (int i = 2; i < argc; ++i)
        for (const auto& e : std::filesystem::directory_iterator(argv[i])) {
            std::ifstream in(e.path(), std::ios::binary);
            seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
    if (seeds.empty()) {
        std::fprintf(stderr, "no seeds\n");
        return 2;
    }
    for (const std::string& s : seeds) run(s);
    std::mt19937 rng(12345);
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    long runs = long(seeds.size());
    while (std::chrono::steady_clock::now() < end) {
        run(mutate(seeds[rng() % seeds.size()], seeds, rng));
        ++runs;
    }
    std::printf("%ld inputs (%zu seeds, then mutations) in %.0f s: no crash, every answer valid\n", runs, seeds.size(),
                seconds);
    return 0;
}
