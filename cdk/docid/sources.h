// Where the generator gets time and randomness. Both are injectable so tests
// can freeze or rewind the clock and script the random bits.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cdk::docid {

class clock_source {
public:
  // Unix time in milliseconds. May go backwards; the generator copes.
  virtual std::uint64_t now_ms() noexcept = 0;

protected:
  ~clock_source() = default;
};

class random_source {
public:
  // Fills `out` with `size` random bytes. Must not fail.
  virtual void fill(unsigned char* out, std::size_t size) noexcept = 0;

protected:
  ~random_source() = default;
};

// CLOCK_REALTIME: exact milliseconds, but about 30 ns per read on our VMs.
clock_source& precise_system_clock() noexcept;

// CLOCK_REALTIME_COARSE: about 6 ns per read, moves once per kernel tick
// (4 ms with HZ=250). The generator's default when the tick is 4 ms or less,
// see default_clock_ms().
clock_source& coarse_system_clock() noexcept;

// The clock a generator without an injected clock reads.
std::uint64_t default_clock_ms() noexcept;

// The kernel's CSPRNG, getrandom(2). Aborts the process if the kernel cannot
// provide random bytes at all: ids without randomness could collide silently.
random_source& os_random() noexcept;

} // namespace cdk::docid
