#include "cdk/docid/generator.h"

#include "cdk/docid/fork_guard.h"
#include "cdk/docid/layout.h"

#include <cstring>
#include <pthread.h>
#include <sched.h>

namespace cdk::docid {

// Why a 26-bit counter (RFC 9562 §6.2, method 1, "fixed-length dedicated
// counter"; the RFC asks for 12 to 42 bits):
//  - It is seeded randomly at each new millisecond with its top bit clear, so
//    at least 2^25 (33 million) ids fit in one millisecond before we must
//    run the timestamp ahead of the clock. One process makes at most a few
//    tens of thousands per millisecond, even with the default clock's 4 ms
//    tick, so in practice the timestamp never runs ahead (CPython #138862
//    shows what happens when a counter is too small for the id rate).
//  - Together with the 48-bit random tail that leaves 73 random bits per
//    process and millisecond (25 in the seed, 48 in the tail). Two processes
//    that make ids in the same millisecond collide only if their tails match
//    (2^-48) and their counter ranges overlap.
//  - 12 + 14 bits end on a byte boundary, so the random tail is exactly the
//    last 6 bytes (12 hex characters) of the id, easy to see when debugging.
static_assert(counter_bits >= 12 && counter_bits <= 42, "RFC 9562 §6.2 method 1");
static_assert(counter_bits + tail_bits == 74, "rand_a + rand_b hold 74 bits");

namespace {

constexpr std::uint32_t seed_mask = counter_max >> 1; // the top bit stays clear
constexpr std::uint64_t ms_mask = (std::uint64_t{1} << 48) - 1;
constexpr std::uint64_t tail_mask = (std::uint64_t{1} << tail_bits) - 1;
// A child process moves its counter on by 1..2^20 (see new_process()).
constexpr std::uint32_t fork_step_mask = (std::uint32_t{1} << 20) - 1;

inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

std::uint32_t load32(const unsigned char* p) noexcept {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | p[i];
  return v;
}

std::uint64_t load48(const unsigned char* p) noexcept {
  std::uint64_t v = 0;
  for (int i = 0; i < 6; ++i) v = (v << 8) | p[i];
  return v;
}

} // namespace

std::uint64_t generator::now_ms() noexcept {
  return (m_clock != nullptr ? m_clock->now_ms() : default_clock_ms()) & ms_mask;
}

void generator::lock() noexcept {
  // The critical section is a few dozen instructions (a getrandom() call once
  // per 25 milliseconds at most), so spin briefly, then let the holder run.
  while (m_locked.exchange(true, std::memory_order_acquire)) {
    for (unsigned spins = 0; m_locked.load(std::memory_order_relaxed); ++spins) {
      if (spins < 128)
        cpu_relax();
      else
        sched_yield();
    }
  }
}

void generator::unlock() noexcept {
  m_locked.store(false, std::memory_order_release);
}

void generator::draw(unsigned char* out, std::size_t size) noexcept {
  if (m_pool_used + size > sizeof m_pool) {
    random_source& source = m_random != nullptr ? *m_random : os_random();
    source.fill(m_pool, sizeof m_pool);
    m_pool_used = 0;
  }
  std::memcpy(out, m_pool + m_pool_used, size);
  m_pool_used += size;
}

// A new millisecond: a fresh random counter seed and random tail (RFC 9562 §6.2).
void generator::new_tick() noexcept {
  unsigned char r[draw_size];
  draw(r, sizeof r);
  m_counter = load32(r) & seed_mask;
  m_tail = load48(r + 4);
}

// First use, or first use in a child after fork(). The child inherited our
// timestamp, counter, tail and random pool: continuing from them would
// produce exactly the parent's next ids. So the pool is discarded and the
// child draws a fresh tail from the kernel, and moves its counter on by a
// random step so that its range is also offset from the parent's and its
// siblings'. It keeps the timestamp, so its ids still sort after every id
// made before the fork.
void generator::new_process(std::uint64_t generation) noexcept {
  install_fork_guard();
  const bool forked = m_generation != 0;
  m_generation = generation;
  m_pool_used = sizeof m_pool;
  if (!forked) return;
  unsigned char r[draw_size];
  draw(r, sizeof r);
  m_tail = load48(r + 4);
  const std::uint32_t step = 1 + (load32(r) & fork_step_mask);
  if (m_counter <= counter_max - step) {
    m_counter += step;
  } else {
    ++m_last_ms;
    new_tick();
  }
}

generator::id_fields generator::next_fields() noexcept {
  // Read the clock before taking the lock: the lock only has to order ids,
  // and taking max(now, last) inside it does that.
  const std::uint64_t now = now_ms();
  const std::uint64_t generation = fork_generation();
  lock();
  if (generation != m_generation) new_process(generation);
  if (now > m_last_ms) {
    m_last_ms = now;
    new_tick();
  } else if (m_counter < counter_max) {
    // Same millisecond, or the clock stepped back: keep the last timestamp and
    // count on (RFC 9562 §6.2, monotonic error checking).
    ++m_counter;
  } else {
    // Counter exhausted: run 1 ms ahead of the clock rather than wait or wrap.
    ++m_last_ms;
    new_tick();
  }
  const id_fields f{m_last_ms & ms_mask, m_counter, m_tail & tail_mask};
  unlock();
  return f;
}

void generator::generate(char* out) noexcept {
  const id_fields f = next_fields();
  layout::encode(out, f.ms, f.counter, f.tail);
}

void generator::append_to(std::string& out) {
  const std::size_t at = out.size();
  out.resize(at + local_id_length);
  generate(out.data() + at);
}

std::string generator::next() {
  std::string id(local_id_length, '\0');
  generate(id.data());
  return id;
}

namespace {
// Constant-initialised, so usable from other static initialisers, and
// trivially destructible, so usable from atexit handlers too.
generator g_process;
} // namespace

void generator::lock_process() noexcept {
  g_process.lock();
}
void generator::unlock_process() noexcept {
  g_process.unlock();
}

generator& generator::process() noexcept {
  // Held across fork() so no child starts with the lock taken by a thread
  // that does not exist in the child.
  static const bool hooked = (pthread_atfork(lock_process, unlock_process, unlock_process), true);
  (void)hooked;
  return g_process;
}

} // namespace cdk::docid
