#include "core/config.h"

#include <gtest/gtest.h>

#include <cstdlib>

using tandem::Config;
using tandem::parse_bool;
using tandem::parse_size;

TEST(ParseSize, AcceptsSuffixes) {
  EXPECT_EQ(parse_size("512"), 512u);
  EXPECT_EQ(parse_size("64K"), 64u << 10);
  EXPECT_EQ(parse_size("64kb"), 64u << 10);
  EXPECT_EQ(parse_size("2M"), 2u << 20);
  EXPECT_EQ(parse_size("1G"), size_t{1} << 30);
  EXPECT_EQ(parse_size("3g"), size_t{3} << 30);
}

TEST(ParseSize, RejectsGarbageAndOverflow) {
  EXPECT_FALSE(parse_size(""));
  EXPECT_FALSE(parse_size("M"));
  EXPECT_FALSE(parse_size("-1"));
  EXPECT_FALSE(parse_size("12X"));
  EXPECT_FALSE(parse_size("1MM"));
  EXPECT_FALSE(parse_size("99999999999999999999999"));
  EXPECT_FALSE(parse_size("17179869184G"));
}

TEST(ParseBool, KnowsTheUsualSpellings) {
  EXPECT_EQ(parse_bool("1"), true);
  EXPECT_EQ(parse_bool("yes"), true);
  EXPECT_EQ(parse_bool("ON"), true);
  EXPECT_EQ(parse_bool("0"), false);
  EXPECT_EQ(parse_bool("False"), false);
  EXPECT_FALSE(parse_bool("maybe"));
}

class ConfigEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const auto& e : tandem::config_table()) {
      unsetenv(e.name);
      if (e.alias) unsetenv(e.alias);
    }
  }
};

TEST_F(ConfigEnvironment, DefaultsApply) {
  std::string error;
  Config c = Config::from_environment(&error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(c.symmetric_size, size_t{512} << 20);
  EXPECT_FALSE(c.debug);
  EXPECT_EQ(c.virtual_nodes, 1);
  EXPECT_EQ(c.defer_threshold, 8192u);
  EXPECT_EQ(c.atomics, Config::Atomics::Auto);
  EXPECT_FALSE(c.stats);
}

TEST_F(ConfigEnvironment, AtomicsPath) {
  std::string error;
  setenv("TANDEM_ATOMICS", "software", 1);
  EXPECT_EQ(Config::from_environment(&error).atomics, Config::Atomics::Software);
  setenv("TANDEM_ATOMICS", "provider", 1);
  EXPECT_EQ(Config::from_environment(&error).atomics, Config::Atomics::Provider);
  setenv("TANDEM_ATOMICS", "auto", 1);
  EXPECT_EQ(Config::from_environment(&error).atomics, Config::Atomics::Auto);
  EXPECT_EQ(error, "");
  setenv("TANDEM_ATOMICS", "hardware", 1);
  EXPECT_EQ(Config::from_environment(&error).atomics, Config::Atomics::Auto);
  EXPECT_NE(error.find("TANDEM_ATOMICS=\"hardware\" is not auto, software or provider"), std::string::npos) << error;
}

TEST_F(ConfigEnvironment, EpochStrategy) {
  std::string error;
  Config c = Config::from_environment(&error);
  EXPECT_EQ(c.epoch_strategy, Config::EpochStrategy::Adaptive);
  EXPECT_EQ(c.epoch_queue, 32u);
  setenv("TANDEM_EPOCH_STRATEGY", "eager", 1);
  EXPECT_EQ(Config::from_environment(&error).epoch_strategy, Config::EpochStrategy::Eager);
  setenv("TANDEM_EPOCH_STRATEGY", "adaptive", 1);
  EXPECT_EQ(Config::from_environment(&error).epoch_strategy, Config::EpochStrategy::Adaptive);
  setenv("TANDEM_EPOCH_STRATEGY", "lazy", 1);
  setenv("TANDEM_EPOCH_QUEUE", "4", 1);
  c = Config::from_environment(&error);
  EXPECT_EQ(c.epoch_strategy, Config::EpochStrategy::Lazy);
  EXPECT_EQ(c.epoch_queue, 4u);
  setenv("TANDEM_EPOCH_STRATEGY", "hybrid", 1);
  EXPECT_EQ(Config::from_environment(&error).epoch_strategy, Config::EpochStrategy::Hybrid);
  EXPECT_EQ(error, "");
  setenv("TANDEM_EPOCH_STRATEGY", "sometimes", 1);
  setenv("TANDEM_EPOCH_QUEUE", "0", 1);
  c = Config::from_environment(&error);
  EXPECT_EQ(c.epoch_strategy, Config::EpochStrategy::Adaptive);
  EXPECT_EQ(c.epoch_queue, 32u);
  EXPECT_NE(error.find("TANDEM_EPOCH_STRATEGY=\"sometimes\" is not adaptive, lazy, eager or hybrid"), std::string::npos)
      << error;
  EXPECT_NE(error.find("TANDEM_EPOCH_QUEUE=\"0\" is not a positive number of operations"), std::string::npos) << error;
}

TEST_F(ConfigEnvironment, TeamsAndWindows) {
  std::string error;
  Config c = Config::from_environment(&error);
  EXPECT_EQ(c.teams, 256u);
  EXPECT_EQ(c.windows, 128u);
  setenv("TANDEM_TEAMS", "1000", 1);
  setenv("TANDEM_WINDOWS", "1", 1);
  c = Config::from_environment(&error);
  EXPECT_EQ(c.teams, 1000u);
  EXPECT_EQ(c.windows, 1u);
  EXPECT_EQ(error, "");
  setenv("TANDEM_TEAMS", "1", 1);
  setenv("TANDEM_WINDOWS", "0", 1);
  c = Config::from_environment(&error);
  EXPECT_EQ(c.teams, 256u);
  EXPECT_EQ(c.windows, 128u);
  EXPECT_NE(error.find("TANDEM_TEAMS=\"1\" is not a number of teams from 2 to 4096"), std::string::npos) << error;
  EXPECT_NE(error.find("TANDEM_WINDOWS=\"0\" is not a number of windows from 1 to 65536"), std::string::npos) << error;
}

TEST_F(ConfigEnvironment, ReadsValuesAndDeprecatedAliases) {
  setenv("SMA_SYMMETRIC_SIZE", "2M", 1);
  setenv("SHMEM_DEBUG", "1", 1);
  setenv("TANDEM_DEFER_THRESHOLD", "64K", 1);
  setenv("TANDEM_STATS", "1", 1);
  std::string error;
  Config c = Config::from_environment(&error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(c.symmetric_size, size_t{2} << 20);
  EXPECT_TRUE(c.debug);
  EXPECT_EQ(c.defer_threshold, size_t{64} << 10);
  EXPECT_TRUE(c.stats);
  setenv("TANDEM_DEFER_THRESHOLD", "off", 1);
  EXPECT_EQ(Config::from_environment(&error).defer_threshold, ~size_t{0});
  setenv("SHMEM_SYMMETRIC_SIZE", "4M", 1);  // the standard name wins over the alias
  EXPECT_EQ(Config::from_environment(&error).symmetric_size, size_t{4} << 20);
}

TEST_F(ConfigEnvironment, ExplainsBadValues) {
  setenv("SHMEM_SYMMETRIC_SIZE", "lots", 1);
  setenv("TANDEM_YIELD", "sometimes", 1);
  std::string error;
  Config c = Config::from_environment(&error);
  EXPECT_NE(error.find("SHMEM_SYMMETRIC_SIZE=\"lots\""), std::string::npos) << error;
  EXPECT_NE(error.find("TANDEM_YIELD"), std::string::npos) << error;
  EXPECT_EQ(c.symmetric_size, size_t{512} << 20) << "the default stays";
}

TEST(ConfigTable, EveryEntryIsDocumented) {
  for (const auto& e : tandem::config_table()) {
    EXPECT_TRUE(e.name && *e.name);
    EXPECT_TRUE(e.fallback);
    EXPECT_TRUE(e.meaning && *e.meaning) << e.name;
  }
  EXPECT_NE(tandem::config_report().find("SHMEM_SYMMETRIC_SIZE"), std::string::npos);
}

TEST(ConfigUnknown, NamesTheClosestSetting) {
  EXPECT_STREQ(tandem::config_closest("TANDEM_PROGRES_THREAD"), "TANDEM_PROGRESS_THREAD");
  EXPECT_STREQ(tandem::config_closest("TANDEM_OFI_PROVDER"), "TANDEM_OFI_PROVIDER");
  EXPECT_STREQ(tandem::config_closest("TANDEM_DEFER"), "TANDEM_DEFER_THRESHOLD");
}

TEST(ConfigUnknown, ReportsOnlyTandemNamesThatAreNoSetting) {
  const char* environment[] = {"PATH=/bin",
                               "TANDEM_PROGRESS_THREAD=on",   // a setting
                               "TANDEM_PROGRES_THREAD=on",    // a typo of one
                               "TANDEM_LAUNCHER=oshrun",      // the launcher's mark
                               "TANDEM_TEST_PIDDIR=/tmp/x",   // the test harness's
                               "TANDEM_PREFIX=/opt/tandem",   // the scripts'
                               "SHMEM_SYMMETRIC_SIZE=1G",
                               nullptr};
  const std::vector<std::string> lines = tandem::config_unknown(environment);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "TANDEM_PROGRES_THREAD is not a Tandem setting and is ignored; the closest one is "
            "TANDEM_PROGRESS_THREAD (tandem_info lists them)");
}
