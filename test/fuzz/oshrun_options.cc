// Fuzz target: oshrun's command line (tools/oshrun/options.cc).  The input is the arguments,
// separated by NUL bytes.  Whatever they are, the parser must answer run, exit or usage
// error, never crash, hang or read past an argument.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "../../tools/oshrun/options.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"oshrun"};
  std::string arg;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\0') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += static_cast<char>(data[i]);
    }
  }
  args.push_back(arg);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  tandem::oshrun::Options options;
  // What it prints (usage, errors) is closed off by the fuzzer's -close_fd_mask=3.
  (void)tandem::oshrun::parse_options(static_cast<int>(argv.size()) - 1, argv.data(), options);
  return 0;
}
