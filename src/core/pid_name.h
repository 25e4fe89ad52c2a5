// Names that carry the pid of the process that made them, "<prefix><pid><end>...": the
// runtime's shared-memory files (tandem-<pid>-<what>), libfabric's shm regions
// (<pid>:<uid>:<n>) and the launcher's job directories (oshrun.<pid>.<suffix>).  One parser
// for the runtime's sweep of stale files and the launcher's cleanup.
#pragma once

#include <string_view>

namespace tandem {

// The pid in `name` when it reads `prefix`, one or more decimal digits, then `end`;
// -1 when it has another shape (or a number too large to be a pid).
inline long pid_in_name(std::string_view name, std::string_view prefix, char end) {
  if (!name.starts_with(prefix)) return -1;
  name.remove_prefix(prefix.size());
  const std::size_t at = name.find(end);
  if (at == 0 || at == std::string_view::npos) return -1;
  long pid = 0;
  for (char c : name.substr(0, at)) {
    if (c < '0' || c > '9' || pid > 100000000) return -1;
    pid = pid * 10 + (c - '0');
  }
  return pid;
}

}  // namespace tandem
