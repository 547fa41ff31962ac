#include "cdk/docid/fork_guard.h"

#include <atomic>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

namespace cdk::docid {

namespace detail {
std::atomic<std::uint64_t> g_fork_generation{1};
// Points into a MADV_WIPEONFORK page: 1 in the process that set it, 0 in a child.
std::atomic<std::uint32_t*> g_alive{nullptr};

// A child that no atfork handler ran in (raw clone or fork system call).
// Several threads may race here; only the one that flips the flag bumps.
std::uint64_t on_wiped_page() noexcept {
  std::uint32_t expected = 0;
  if (__atomic_compare_exchange_n(g_alive.load(), &expected, 1, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE))
    g_fork_generation.fetch_add(1, std::memory_order_acq_rel);
  return g_fork_generation.load(std::memory_order_acquire);
}
} // namespace detail

namespace {

void on_fork_child() noexcept {
  detail::g_fork_generation.fetch_add(1, std::memory_order_acq_rel);
  if (auto* alive = detail::g_alive.load(); alive != nullptr)
    __atomic_store_n(alive, 1, __ATOMIC_RELEASE);
}

std::uint32_t* map_wipe_on_fork_page() noexcept {
#ifdef MADV_WIPEONFORK
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  void* p = mmap(nullptr, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return nullptr;
  if (madvise(p, page, MADV_WIPEONFORK) != 0) {
    munmap(p, page);
    return nullptr;
  }
  // The page holds this flag for the life of the process; never unmapped.
  auto* flag = static_cast<std::uint32_t*>(p);
  __atomic_store_n(flag, 1, __ATOMIC_RELEASE);
  return flag;
#else
  return nullptr;
#endif
}

} // namespace

void install_fork_guard() noexcept {
  static const bool installed = [] {
    detail::g_alive.store(map_wipe_on_fork_page(), std::memory_order_release);
    pthread_atfork(nullptr, nullptr, on_fork_child);
    return true;
  }();
  (void)installed;
}

bool wipe_on_fork_available() noexcept {
  install_fork_guard();
  return detail::g_alive.load() != nullptr;
}

} // namespace cdk::docid
