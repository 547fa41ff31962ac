// A wait for a socket to become readable by a thread that does not own the
// stream reading it, cut short by another thread (an eventfd). A future's
// waiter waits so for its reply without holding the session's connection,
// which other threads use meanwhile to send; a thread that reads the reply
// in its place wakes it.
#pragma once

#include "cdk/foundation/fd.h"

namespace cdk {

class readable_waiter {
public:
  readable_waiter() = default;
  readable_waiter(const readable_waiter&) = delete;
  readable_waiter& operator=(const readable_waiter&) = delete;

  // Makes the eventfd on first use (most sessions never wait so): false
  // when none can be had. Called, as wake(), under the lock of whatever
  // owns the waiter; wait() runs without it, after prepare() returned true.
  bool prepare() noexcept;

  enum class outcome { readable, woken, timeout };
  // Until `fd` is readable (a hang-up or an error counts: the read then says
  // what happened), wake() is called, or the deadline passes. A wake() made
  // while nobody waits ends the next wait at once.
  outcome wait(int fd, steady_deadline deadline) noexcept;
  void wake() noexcept; // a no-op before prepare()

private:
  unique_fd m_event;
};

} // namespace cdk
