#include "options.h"

#if defined(HAVE_CONFIG_H)
#include "config.h"
#endif

#include <pmix.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

namespace tandem::oshrun {
namespace {

// PMIX_LOCAL_RANK is a 16-bit field: every PE runs on this machine, so that is the cap.
constexpr int kMaxPes = 65535;
constexpr double kMaxTimeoutS = 100.0 * 24 * 3600;

constexpr const char* kUsage =
    "Usage: oshrun [options] -n N program [arguments...]\n"
    "\n"
    "Starts N processing elements (PEs) of an OpenSHMEM program on this machine.\n"
    "oshrun is the PEs' PMIx server: they learn their rank, the job size and their\n"
    "peers from it.\n"
    "\n"
    "Options:\n"
    "  -n N, -np N         start N PEs (required)\n"
    "  -x VAR              pass oshrun's value of VAR to the PEs\n"
    "  -x VAR=value        set VAR=value in every PE's environment (repeatable)\n"
    "  --tag-output        prefix each output line with [1,RANK]<stdout>: or <stderr>:\n"
    "  --timeout S         end the job if it runs longer than S seconds (exit status 124)\n"
    "  --nodes K           split the PEs into K virtual nodes (1 <= K <= N); sets\n"
    "                      TANDEM_VIRTUAL_NODES=K for the runtime\n"
    "  --oversubscribe     accepted for compatibility; oshrun never refuses to start\n"
    "                      more PEs than there are cores\n"
    "  -v, --verbose       report the job's setup on stderr\n"
    "  -h, --help          print this help and exit\n"
    "  --version           print the version and exit\n"
    "\n"
    "Standard input goes to PE 0. The exit status is 0 when every PE exits 0, else the\n"
    "status of the first PE that failed (128+N for a PE killed by signal N); the rest\n"
    "of the job is then terminated. See oshrun(1).\n";

bool usage_error(const char* fmt, const char* detail = "") {
  std::fprintf(stderr, "oshrun: ");
  std::fprintf(stderr, fmt, detail);
  std::fprintf(stderr, "\n");
  return false;
}

bool parse_count(std::string_view text, int max, int& out) {
  int value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > max)
    return false;
  out = value;
  return true;
}

bool parse_seconds(const std::string& text, double& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (*end != '\0' || !std::isfinite(value) || value <= 0 || value > kMaxTimeoutS) return false;
  out = value;
  return true;
}

bool parse_export(const std::string& text, Options& out) {
  auto eq = text.find('=');
  std::string name = text.substr(0, eq);
  if (name.empty()) return usage_error("-x needs VAR or VAR=value, not '%s'", text.c_str());
  ExportedVariable var{name, std::nullopt};
  if (eq != std::string::npos) var.value = text.substr(eq + 1);
  out.exports.push_back(std::move(var));
  return true;
}

// Walks argv; options end at the first word that is not an option (the program) or at "--".
class ArgumentParser {
 public:
  ArgumentParser(int argc, char** argv) : argc_(argc), argv_(argv) {}

  ParseOutcome run(Options& out);

 private:
  // The value of option `name`: the "=value" part of "--name=value", else the next word.
  bool take_value(const std::string& name, std::optional<std::string>& inline_value,
                  std::string& value);
  bool handle(const std::string& arg, Options& out, bool& stop);

  int argc_;
  char** argv_;
  int next_ = 1;
  bool help_ = false;
  bool version_ = false;
  bool have_count_ = false;
};

bool ArgumentParser::take_value(const std::string& name, std::optional<std::string>& inline_value,
                                std::string& value) {
  if (inline_value) {
    value = *inline_value;
    inline_value.reset();
    return true;
  }
  if (next_ >= argc_) return usage_error("%s needs a value", name.c_str());
  value = argv_[next_++];
  return true;
}

bool ArgumentParser::handle(const std::string& arg, Options& out, bool& stop) {
  std::string name = arg;
  std::optional<std::string> inline_value;
  if (arg.rfind("--", 0) == 0) {
    auto eq = arg.find('=');
    if (eq != std::string::npos) {
      name = arg.substr(0, eq);
      inline_value = arg.substr(eq + 1);
    }
  }
  std::string value;

  if (name == "--") {
    stop = true;
  } else if (name == "-n" || name == "-np" || name == "--np" || name == "--n" ||
             (name.rfind("-n", 0) == 0 && name.size() > 2 && name[2] >= '0' && name[2] <= '9')) {
    if (name.size() > 2 && name[1] == 'n' && name[2] != 'p') {
      value = name.substr(2);  // "-n4"
    } else if (!take_value("-n", inline_value, value)) {
      return false;
    }
    if (!parse_count(value, kMaxPes, out.num_pes))
      return usage_error("-n needs a positive number (at most 65535), not '%s'", value.c_str());
    have_count_ = true;
  } else if (name == "-x" || name.rfind("-x", 0) == 0) {
    if (name.size() > 2) {
      value = name.substr(2);  // "-xVAR=value"
    } else if (!take_value("-x", inline_value, value)) {
      return false;
    }
    if (!parse_export(value, out)) return false;
  } else if (name == "--timeout") {
    if (!take_value(name, inline_value, value)) return false;
    if (!parse_seconds(value, out.timeout_s))
      return usage_error("--timeout needs a positive number of seconds, not '%s'", value.c_str());
    out.timeout_text = value;
  } else if (name == "--nodes") {
    if (!take_value(name, inline_value, value)) return false;
    if (!parse_count(value, kMaxPes, out.virtual_nodes))
      return usage_error("--nodes needs a positive number, not '%s'", value.c_str());
  } else if (name == "--tag-output") {
    out.tag_output = true;
  } else if (name == "--oversubscribe") {
    // Nothing to do: PEs that outnumber cores back off in the runtime.
  } else if (name == "-v" || name == "--verbose") {
    out.verbose = true;
  } else if (name == "-h" || name == "--help") {
    help_ = true;
  } else if (name == "--version" || name == "-V") {
    version_ = true;
  } else {
    return usage_error("unknown option '%s' (try oshrun --help)", arg.c_str());
  }
  if (inline_value) return usage_error("%s takes no value", name.c_str());
  return true;
}

ParseOutcome ArgumentParser::run(Options& out) {
  while (next_ < argc_) {
    std::string arg = argv_[next_];
    if (arg.size() < 2 || arg[0] != '-') break;  // the program ("-" alone included)
    ++next_;
    bool stop = false;
    if (!handle(arg, out, stop)) return ParseOutcome::kExitUsageError;
    if (stop) break;
  }
  if (help_) {
    std::fputs(kUsage, stdout);
    return ParseOutcome::kExitSuccess;
  }
  if (version_) {
    std::printf("oshrun (Tandem) %s\nPMIx %s\n", PACKAGE_VERSION, PMIx_Get_version());
    return ParseOutcome::kExitSuccess;
  }
  for (int i = next_; i < argc_; ++i) out.command.emplace_back(argv_[i]);

  if (!have_count_) {
    usage_error("-n needs a positive number: say how many PEs to start (try oshrun --help)");
    return ParseOutcome::kExitUsageError;
  }
  if (out.command.empty()) {
    usage_error("no program to run (try oshrun --help)");
    return ParseOutcome::kExitUsageError;
  }
  if (out.command.front().empty()) {
    usage_error("the program name is empty");
    return ParseOutcome::kExitUsageError;
  }
  if (out.virtual_nodes > out.num_pes) {
    std::fprintf(stderr, "oshrun: --nodes %d is more than the %d PEs: each virtual node needs a PE\n",
                 out.virtual_nodes, out.num_pes);
    return ParseOutcome::kExitUsageError;
  }
  return ParseOutcome::kRun;
}

}  // namespace

ParseOutcome parse_options(int argc, char** argv, Options& out) {
  return ArgumentParser(argc, argv).run(out);
}

}  // namespace tandem::oshrun
