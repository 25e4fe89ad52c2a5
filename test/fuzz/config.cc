// Fuzz target: the environment a PE reads (src/core/config.cc and TANDEM_OFI_REQUIRE's
// parser).  The input is lines NAME=VALUE: each is set in the environment (names of the
// settings table get a value from the input; any other name is passed to the unknown-name
// check), then the settings are read as shmem_init reads them, and every value goes through
// the size, switch and list parsers.  A malformed value must come back as an error message,
// never as a crash, a fatal error (test/fuzz/stubs.cc aborts) or a hang.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/config.h"
#include "transport/ofi/provider.h"

using namespace tandem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> lines;
  for (size_t at = 0; at <= input.size();) {
    size_t end = input.find('\n', at);
    if (end == std::string::npos) end = input.size();
    lines.push_back(input.substr(at, end - at));
    at = end + 1;
  }
  std::vector<std::string> set;
  std::vector<const char*> environment;
  for (const std::string& line : lines) {
    environment.push_back(line.c_str());
    const size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0 || line.find('\0') != std::string::npos) continue;
    const std::string name = line.substr(0, eq), value = line.substr(eq + 1);
    (void)parse_size(value);
    (void)parse_bool(value);
    ofi::Rules rules;
    std::string bad;
    (void)ofi::parse_required(value, &rules, &bad);
    (void)config_closest(name);
    for (const ConfigEntry& entry : config_table())
      if (name == entry.name || (entry.alias && name == entry.alias)) {
        setenv(name.c_str(), value.c_str(), 1);
        set.push_back(name);
      }
  }
  environment.push_back(nullptr);
  (void)config_unknown(environment.data());
  std::string error;
  (void)Config::from_environment(&error);
  (void)config_report();
  for (const std::string& name : set) unsetenv(name.c_str());
  return 0;
}
