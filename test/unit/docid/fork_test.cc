// Fork safety: a child never repeats its parent's (or a sibling's) ids.
#include "cdk/docid/decode.h"
#include "cdk/docid/fork_guard.h"
#include "cdk/docid/generator.h"
#include "fakes.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <gtest/gtest.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

using cdk::docid::generator;
using docid_test::id_bytes;

// Runs `child` in a forked process (by fork() or by the raw system call,
// which skips pthread_atfork handlers) and returns what it wrote to `out`.
template <typename Fn> pid_t spawn(bool raw_syscall, Fn child) {
  const pid_t pid = raw_syscall ? static_cast<pid_t>(syscall(SYS_fork)) : fork();
  if (pid == 0) {
    child();
    _exit(0);
  }
  return pid;
}

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

void wait_ok(pid_t pid) {
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(Fork, EightChildrenAndParentNeverCollide) {
  constexpr int children = 8;
  constexpr std::size_t per_process = 250'000;
  auto& gen = generator::process();
  // Warm the state so every child inherits a live timestamp and counter.
  id_bytes before_fork{};
  for (int i = 0; i < 1000; ++i) gen.generate(before_fork.data());

  std::vector<FILE*> files;
  std::vector<pid_t> pids;
  for (int c = 0; c < children; ++c) {
    FILE* f = std::tmpfile();
    ASSERT_NE(f, nullptr);
    files.push_back(f);
    const int fd = fileno(f);
    pids.push_back(spawn(false, [fd] {
      std::vector<id_bytes> ids(per_process);
      for (auto& id : ids) generator::process().generate(id.data());
      if (!write_all(fd, ids.data(), ids.size() * sizeof(id_bytes))) _exit(1);
    }));
    ASSERT_GT(pids.back(), 0);
  }
  std::vector<id_bytes> all(per_process);
  for (auto& id : all) gen.generate(id.data()); // the parent, after the forks
  for (std::size_t i = 1; i < all.size(); ++i) {
    ASSERT_TRUE(docid_test::less(all[i - 1], all[i]));
  }

  for (int c = 0; c < children; ++c) {
    wait_ok(pids[c]);
    std::vector<id_bytes> ids(per_process);
    std::rewind(files[c]);
    ASSERT_EQ(std::fread(ids.data(), sizeof(id_bytes), ids.size(), files[c]), per_process);
    std::fclose(files[c]);
    // Each child's own sequence increases and starts after the pre-fork ids.
    ASSERT_TRUE(docid_test::less(before_fork, ids.front())) << c;
    for (std::size_t i = 1; i < ids.size(); ++i) {
      ASSERT_TRUE(docid_test::less(ids[i - 1], ids[i]));
    }
    all.insert(all.end(), ids.begin(), ids.end());
  }
  ASSERT_EQ(all.size(), per_process * (children + 1));
  std::sort(all.begin(), all.end(), docid_test::less);
  const auto dup = std::adjacent_find(all.begin(), all.end());
  EXPECT_EQ(dup, all.end()) << "duplicate id " << docid_test::str(*dup);
}

// With a frozen clock, a child that simply continued from the inherited state
// would make exactly the id the parent makes next. It must not.
void child_differs_from_parent(bool raw_syscall) {
  docid_test::manual_clock clock(1'763'700'000'000);
  generator gen(&clock, nullptr); // the kernel's randomness, fresh in the child
  const std::string before = gen.next();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = spawn(raw_syscall, [&] {
    char id[32];
    gen.generate(id);
    if (!write_all(fds[1], id, sizeof id)) _exit(1);
  });
  ASSERT_GT(pid, 0);
  close(fds[1]);
  const std::string parent_next = gen.next();
  char child_id[32];
  ASSERT_EQ(read(fds[0], child_id, sizeof child_id), 32);
  close(fds[0]);
  wait_ok(pid);
  const std::string child_next(child_id, 32);

  EXPECT_NE(child_next, parent_next);
  EXPECT_LT(before, child_next);
  EXPECT_LT(before, parent_next);
  const auto c = cdk::docid::classify(child_next).local;
  const auto p = cdk::docid::classify(parent_next).local;
  EXPECT_NE(c.random, p.random) << "the child draws a fresh random tail";
}

TEST(Fork, ChildDoesNotContinueParentsSequence) {
  child_differs_from_parent(false);
}

TEST(Fork, RawForkSyscallIsDetectedToo) {
  if (!cdk::docid::wipe_on_fork_available())
    GTEST_SKIP() << "kernel without MADV_WIPEONFORK: only fork() is detected";
  child_differs_from_parent(true);
}

TEST(Fork, GenerationChangesOnlyInTheChild) {
  cdk::docid::install_fork_guard(); // a generator does this before its first id
  const auto mine = cdk::docid::fork_generation();
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t pid = spawn(false, [&] {
    const auto theirs = cdk::docid::fork_generation();
    if (!write_all(fds[1], &theirs, sizeof theirs)) _exit(1);
  });
  close(fds[1]);
  std::uint64_t theirs = 0;
  ASSERT_EQ(read(fds[0], &theirs, sizeof theirs), static_cast<ssize_t>(sizeof theirs));
  close(fds[0]);
  wait_ok(pid);
  EXPECT_NE(theirs, mine);
  EXPECT_EQ(cdk::docid::fork_generation(), mine);
}

} // namespace
