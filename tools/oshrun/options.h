// oshrun's command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tandem::oshrun {

// One `-x` argument: `VAR` (pass oshrun's value on) or `VAR=value` (set it).
struct ExportedVariable {
  std::string name;
  std::optional<std::string> value;
};

struct Options {
  int num_pes = 0;
  int virtual_nodes = 0;  // 0: --nodes not given
  double timeout_s = 0;   // 0: no --timeout
  std::string timeout_text;  // as the user wrote it, for the message
  bool tag_output = false;
  bool verbose = false;
  std::vector<ExportedVariable> exports;
  std::vector<std::string> command;  // program and its arguments
};

// What the caller should do after parsing.
enum class ParseOutcome { kRun, kExitSuccess, kExitUsageError };

// Parses argv.  Prints --help / --version output to stdout and error messages (prefixed
// "oshrun: ") to stderr itself; kExitUsageError means exit status 2.
ParseOutcome parse_options(int argc, char** argv, Options& out);

}  // namespace tandem::oshrun
