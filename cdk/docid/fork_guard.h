// Fork detection for the id generator, cheap enough to run on every id.
//
// libbson calls getpid() per ObjectId to notice a fork. Since glibc 2.25
// getpid() is a real system call (about 180 ns on our VMs, seven times our
// budget per id), so we keep a process "generation" instead, bumped in the
// child by two independent mechanisms:
//   - a pthread_atfork() child handler (fork(), and anything built on it);
//   - a page marked MADV_WIPEONFORK, which the kernel zeroes in any child,
//     also one made by a raw clone()/fork system call that skips the handler.
// Reading it is one acquire load of the page's address, one relaxed load of
// the page and one of the counter (all plain loads on x86-64).
#pragma once

#include <atomic>
#include <cstdint>

namespace cdk::docid {

namespace detail {
extern std::atomic<std::uint64_t> g_fork_generation;
// A word in a MADV_WIPEONFORK page, accessed with the __atomic builtins (the
// kernel zeroes it behind the C++ object model's back). Null until installed,
// or when unsupported.
extern std::atomic<std::uint32_t*> g_alive;
std::uint64_t on_wiped_page() noexcept;
} // namespace detail

// Registers the atfork handler and maps the wipe-on-fork page, once. A
// generator calls it before its first id.
void install_fork_guard() noexcept;

// Never 0. Changes in a child process; never changes otherwise. Inline: this
// runs on every id.
inline std::uint64_t fork_generation() noexcept {
  // Acquire, paired with install_fork_guard()'s store: a thread that sees the
  // page also sees it mapped and its flag set. Relaxed, a thread other than
  // the installer could read the flag before its first store (as 0), and take
  // itself for a forked child.
  const std::uint32_t* alive = detail::g_alive.load(std::memory_order_acquire);
  if (alive != nullptr && __atomic_load_n(alive, __ATOMIC_RELAXED) == 0)
    return detail::on_wiped_page();
  return detail::g_fork_generation.load(std::memory_order_relaxed);
}

// Whether the kernel supports MADV_WIPEONFORK (Linux 4.14+). Without it only
// pthread_atfork() detects a fork.
bool wipe_on_fork_available() noexcept;

} // namespace cdk::docid
