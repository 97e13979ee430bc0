// Memory for a large table read and written at random (the engine's
// transposition table, the solver's proof tables): zeroed, starting on a
// 2 MiB boundary, and advised to the kernel as transparent huge pages. A
// table touched at random then faults once per 2 MiB instead of once per
// 4 KiB (a #4 of the solver touched 23,000 pages of its 64 MiB table: most
// of its time). The advice is a hint: without huge pages the memory is the
// same, in small pages.
#pragma once

#include <cstddef>

namespace echecs::platform {

class HugePages {
public:
    HugePages() = default;
    // `bytes` of zeros; throws std::bad_alloc when the system refuses them.
    explicit HugePages(std::size_t bytes);
    ~HugePages();
    HugePages(HugePages&& other) noexcept;
    HugePages& operator=(HugePages&& other) noexcept;
    HugePages(const HugePages&) = delete;
    HugePages& operator=(const HugePages&) = delete;

    void* data() const { return data_; }
    std::size_t size() const { return bytes_; }

private:
    void release();
    void* mapping_ = nullptr;  // what mmap gave; data_ is aligned within it
    std::size_t mapped_ = 0;
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace echecs::platform
