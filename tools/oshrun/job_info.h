// The information oshrun registers for its job's namespace: what a PE learns from PMIx
// (job size, which ranks share its node, its local rank...).
#pragma once

#include <pmix.h>

#include <cstdint>
#include <string>

namespace tandem::oshrun {

// A growing list of pmix_info_t (PMIx's own list API: it copies every value in).
class JobInfoList {
 public:
  JobInfoList();
  JobInfoList(const JobInfoList&) = delete;
  JobInfoList& operator=(const JobInfoList&) = delete;
  ~JobInfoList();

  void add_string(const char* key, const std::string& value);
  void add_uint32(const char* key, std::uint32_t value);
  void add_uint16(const char* key, std::uint16_t value);
  void add_rank(const char* key, pmix_rank_t value);
  // Takes a converted sub-list (for PMIX_PROC_INFO_ARRAY) and copies it in.
  void add_array(const char* key, pmix_data_array_t& value);

  // Copies the list into `out` (release with PMIx_Data_array_destruct).  False if any
  // add failed or memory ran out.
  bool convert(pmix_data_array_t& out);

 private:
  void add(const char* key, const void* value, pmix_data_type_t type);

  void* list_;
  bool ok_ = true;
};

// Job-level and per-PE information for `num_pes` PEs, all on this host.
bool build_job_info(const std::string& nspace, int num_pes, pmix_data_array_t& out);

}  // namespace tandem::oshrun
