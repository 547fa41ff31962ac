// The local document-id generator: RFC 9562 UUIDv7 written as 32 lower-case
// hex characters, for servers that cannot generate ids (MySQL 5.7's X Plugin)
// and for docid-mode=client.
//
//   48 bits  Unix time in milliseconds
//    4 bits  version 7
//   26 bits  counter: the 12 bits of rand_a, then the 14 high bits of rand_b
//    2 bits  variant 10
//   48 bits  random, drawn per process and per millisecond
//
// Every id a generator returns compares greater, as a byte string, than every
// id it returned before: across threads, when the wall clock steps back, and
// when one millisecond needs more ids than the counter holds. Sessions share
// generator::process(), so this holds for the whole process.
//
// Server ids are 28 characters and ours 32, so the two never collide.
#pragma once

#include "cdk/docid/sources.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace cdk::docid {

inline constexpr std::size_t local_id_length = 32;
inline constexpr unsigned counter_bits = 26;
inline constexpr std::uint32_t counter_max = (std::uint32_t{1} << counter_bits) - 1;
inline constexpr unsigned tail_bits = 48;

class generator {
public:
  // The system clock (see default_clock_ms()) and getrandom().
  constexpr generator() noexcept = default;
  // Injected sources, for tests; nullptr means the system's. Not owned: they
  // must outlive the generator.
  generator(clock_source* clock, random_source* random) noexcept
      : m_clock(clock), m_random(random) {}
  generator(const generator&) = delete;
  generator& operator=(const generator&) = delete;

  // Writes the next id to out[0..31]: no terminating NUL, no allocation.
  void generate(char* out) noexcept;
  void append_to(std::string& out);
  std::string next();

  // The generator all sessions of the process share. Its lock is held across
  // fork() (pthread_atfork), so a child never inherits it locked. Other
  // instances must not be used by another thread while a thread forks.
  static generator& process() noexcept;

private:
  struct id_fields {
    std::uint64_t ms;
    std::uint32_t counter;
    std::uint64_t tail;
  };
  id_fields next_fields() noexcept;
  std::uint64_t now_ms() noexcept;
  void lock() noexcept;
  void unlock() noexcept;
  void draw(unsigned char* out, std::size_t size) noexcept;
  void new_tick() noexcept;
  void new_process(std::uint64_t generation) noexcept;
  static void lock_process() noexcept;
  static void unlock_process() noexcept;

  clock_source* m_clock = nullptr;
  random_source* m_random = nullptr;
  std::atomic<bool> m_locked{false};
  // Guarded by m_locked:
  std::uint64_t m_generation = 0; // fork_generation() the state belongs to; 0: unused
  std::uint64_t m_last_ms = 0;
  std::uint32_t m_counter = 0;
  std::uint64_t m_tail = 0;
  // getrandom() costs ~500 ns, so random bits are fetched 25 draws at a time.
  // The pool is thrown away on fork: a child must never reuse its parent's.
  static constexpr std::size_t draw_size = 10; // 4 for the counter seed, 6 for the tail
  unsigned char m_pool[25 * draw_size] = {};
  std::size_t m_pool_used = sizeof m_pool;
};

} // namespace cdk::docid
