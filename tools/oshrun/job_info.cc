#include "job_info.h"

#include <pmix_server.h>
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <cstring>

namespace tandem::oshrun {

JobInfoList::JobInfoList() : list_(PMIx_Info_list_start()) { ok_ = list_ != nullptr; }

JobInfoList::~JobInfoList() {
  if (list_ != nullptr) PMIx_Info_list_release(list_);
}

void JobInfoList::add(const char* key, const void* value, pmix_data_type_t type) {
  if (!ok_) return;
  ok_ = PMIx_Info_list_add(list_, key, value, type) == PMIX_SUCCESS;
}

void JobInfoList::add_string(const char* key, const std::string& value) {
  add(key, value.c_str(), PMIX_STRING);
}
void JobInfoList::add_uint32(const char* key, std::uint32_t value) {
  add(key, &value, PMIX_UINT32);
}
void JobInfoList::add_uint16(const char* key, std::uint16_t value) {
  add(key, &value, PMIX_UINT16);
}
void JobInfoList::add_rank(const char* key, pmix_rank_t value) {
  add(key, &value, PMIX_PROC_RANK);
}
void JobInfoList::add_array(const char* key, pmix_data_array_t& value) {
  add(key, &value, PMIX_DATA_ARRAY);
}

bool JobInfoList::convert(pmix_data_array_t& out) {
  std::memset(&out, 0, sizeof out);
  return ok_ && PMIx_Info_list_convert(list_, &out) == PMIX_SUCCESS;
}

namespace {

std::string local_host_name() {
  char name[HOST_NAME_MAX + 1] = {};
  if (::gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

// "0,1,...,n-1": every rank is on this host.
std::string all_ranks(int num_pes) {
  std::string ranks;
  for (int r = 0; r < num_pes; ++r) {
    if (r > 0) ranks += ',';
    ranks += std::to_string(r);
  }
  return ranks;
}

// PMIx's compact encodings of the node list and of the ranks on each node.
bool generate_maps(const std::string& host, const std::string& ranks, std::string& node_map,
                   std::string& proc_map) {
  char* nodes = nullptr;
  char* procs = nullptr;
  bool ok = PMIx_generate_regex(host.c_str(), &nodes) == PMIX_SUCCESS && nodes != nullptr &&
            PMIx_generate_ppn(ranks.c_str(), &procs) == PMIX_SUCCESS && procs != nullptr;
  if (ok) {
    node_map = nodes;
    proc_map = procs;
  }
  std::free(nodes);
  std::free(procs);
  return ok;
}

bool add_pe_info(JobInfoList& job, int rank, const std::string& host) {
  JobInfoList pe;
  // PMIx requires the rank to come first.
  pe.add_rank(PMIX_RANK, static_cast<pmix_rank_t>(rank));
  pe.add_rank(PMIX_GLOBAL_RANK, static_cast<pmix_rank_t>(rank));
  pe.add_rank(PMIX_APP_RANK, static_cast<pmix_rank_t>(rank));
  pe.add_uint16(PMIX_LOCAL_RANK, static_cast<std::uint16_t>(rank));
  pe.add_uint16(PMIX_NODE_RANK, static_cast<std::uint16_t>(rank));
  pe.add_uint32(PMIX_APPNUM, 0);
  pe.add_uint32(PMIX_NODEID, 0);
  pe.add_string(PMIX_HOSTNAME, host);
  pmix_data_array_t array;
  if (!pe.convert(array)) return false;
  job.add_array(PMIX_PROC_INFO_ARRAY, array);
  PMIx_Data_array_destruct(&array);
  return true;
}

}  // namespace

bool build_job_info(const std::string& nspace, int num_pes, pmix_data_array_t& out) {
  const std::string host = local_host_name();
  const std::string ranks = all_ranks(num_pes);
  std::string node_map, proc_map;
  if (!generate_maps(host, ranks, node_map, proc_map)) return false;

  const auto size = static_cast<std::uint32_t>(num_pes);
  JobInfoList job;
  job.add_string(PMIX_JOBID, nspace);
  job.add_uint32(PMIX_JOB_SIZE, size);
  job.add_uint32(PMIX_UNIV_SIZE, size);
  job.add_uint32(PMIX_MAX_PROCS, size);
  job.add_uint32(PMIX_JOB_NUM_APPS, 1);
  job.add_uint32(PMIX_APP_SIZE, size);
  job.add_uint32(PMIX_NUM_NODES, 1);
  job.add_string(PMIX_NODE_MAP, node_map);
  job.add_string(PMIX_PROC_MAP, proc_map);
  job.add_uint32(PMIX_LOCAL_SIZE, size);
  job.add_uint32(PMIX_NODE_SIZE, size);
  job.add_string(PMIX_LOCAL_PEERS, ranks);
  job.add_rank(PMIX_LOCALLDR, 0);
  for (int r = 0; r < num_pes; ++r)
    if (!add_pe_info(job, r, host)) return false;
  return job.convert(out);
}

}  // namespace tandem::oshrun
