#include "platform/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace echecs::platform {

namespace {
constexpr std::size_t HUGE_PAGE = 2 * 1024 * 1024;  // x86-64's transparent huge page
}  // namespace

HugePages::HugePages(std::size_t bytes) {
    // Reserved (no MAP_NORESERVE): a size the machine cannot hold fails here, not
    // later in a page fault. A fresh anonymous mapping reads as zeros.
    const std::size_t mapped = bytes + HUGE_PAGE;
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    const auto at = (reinterpret_cast<std::uintptr_t>(p) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
    madvise(reinterpret_cast<void*>(at), bytes, MADV_HUGEPAGE);  // a hint only
#endif
    mapping_ = p;
    mapped_ = mapped;
    data_ = reinterpret_cast<void*>(at);
    bytes_ = bytes;
}

HugePages::~HugePages() { release(); }

HugePages::HugePages(HugePages&& other) noexcept { *this = std::move(other); }

HugePages& HugePages::operator=(HugePages&& other) noexcept {
    if (this != &other) {
        release();
        mapping_ = std::exchange(other.mapping_, nullptr);
        mapped_ = std::exchange(other.mapped_, 0);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void HugePages::release() {
    if (mapping_) munmap(mapping_, mapped_);
    mapping_ = data_ = nullptr;
    mapped_ = bytes_ = 0;
}

}  // namespace echecs::platform
