#include "boot/pmix_boot.h"

#include <pmix.h>

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

#include "core/backoff.h"
#include "core/error.h"

namespace tandem {

namespace {
pmix_proc_t self;

// The PMIx job and rank this process was started as, as its launcher wrote them into the
// environment, read when the library is loaded: before main, so before another library of
// the program (MPI) can replace them.
std::string launch_variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}
const std::string launched_job = launch_variable("PMIX_NAMESPACE");
const std::string launched_rank = launch_variable("PMIX_RANK");

// The launcher is gone (killed, or it lost this PE): nothing can complete any more, and a PE
// left spinning in a wait would run on forever.
void on_lost_launcher(size_t, pmix_status_t, const pmix_proc_t*, pmix_info_t*, size_t,
                      pmix_info_t*, size_t, pmix_event_notification_cbfunc_fn_t, void*) {
  static const char message[] = "tandem: the connection to the launcher (PMIx server) is lost; this PE ends\n";
  ssize_t ignored = write(2, message, sizeof message - 1);
  (void)ignored;
  exit_pe(1);
}
}  // namespace

void PmixBoot::init(const char* call) {
  pmix_status_t rc = PMIx_Init(&self, nullptr, 0);
  if (rc != PMIX_SUCCESS)
    fatal(call,
          "cannot reach a PMIx server (%s): start the program with oshrun, or with a PMIx "
          "launcher such as mpirun, prterun or srun --mpi=pmix",
          PMIx_Error_string(rc));
  up_ = true;
  pmix_status_t lost = PMIX_ERR_LOST_CONNECTION;
  PMIx_Register_event_handler(&lost, 1, nullptr, 0, on_lost_launcher, nullptr, nullptr);
  rank_ = static_cast<int>(self.rank);
  nspace_ = self.nspace;
  // An MPI library that does not recognise its launcher (Open MPI 4 under a PMIx server
  // other than its mpirun, Slurm's or Flux's) runs as a singleton with a PMIx server of its
  // own; initialised first, it hands that server to this PMIx_Init, and each PE would be
  // alone in a job of one.
  if (!launched_job.empty() && launched_job != nspace_)
    fatal(call,
          "this process was started as rank %s of PMIx job %s, but a library initialised "
          "before shmem_init (MPI_Init?) connected it to a PMIx server of its own (job %s): "
          "that library did not recognise the launcher; start the program with its MPI's "
          "mpirun or with srun --mpi=pmix (man 7 tandem, HYBRID PROGRAMS)",
          launched_rank.c_str(), launched_job.c_str(), nspace_.c_str());

  pmix_proc_t wildcard;
  PMIX_PROC_CONSTRUCT(&wildcard);
  PMIX_LOAD_PROCID(&wildcard, self.nspace, PMIX_RANK_WILDCARD);
  pmix_value_t* value = nullptr;
  rc = PMIx_Get(&wildcard, PMIX_JOB_SIZE, nullptr, 0, &value);
  if (rc != PMIX_SUCCESS || value == nullptr)
    fatal(call, "the PMIx server does not give the job size (%s)", PMIx_Error_string(rc));
  size_t n = 0;
  PMIX_VALUE_GET_NUMBER(rc, value, n, size_t);
  PMIX_VALUE_RELEASE(value);
  if (rc != PMIX_SUCCESS || n == 0) fatal(call, "the PMIx server gives an unusable job size");
  size_ = static_cast<int>(n);
}

std::string PmixBoot::host() const {
  pmix_value_t* value = nullptr;
  std::string name;
  if (PMIx_Get(&self, PMIX_HOSTNAME, nullptr, 0, &value) == PMIX_SUCCESS && value != nullptr &&
      value->type == PMIX_STRING && value->data.string != nullptr)
    name = value->data.string;
  if (value != nullptr) PMIX_VALUE_RELEASE(value);
  return name;
}

void PmixBoot::finalize() {
  if (!up_) return;
  PMIx_Finalize(nullptr, 0);
  up_ = false;
}

void PmixBoot::publish(const char* call, const std::string& key, const std::string& blob) {
  pmix_value_t value;
  PMIX_VALUE_CONSTRUCT(&value);
  value.type = PMIX_BYTE_OBJECT;
  value.data.bo.bytes = const_cast<char*>(blob.data());
  value.data.bo.size = blob.size();
  pmix_status_t rc = PMIx_Put(PMIX_GLOBAL, key.c_str(), &value);
  if (rc == PMIX_SUCCESS) rc = PMIx_Commit();
  if (rc != PMIX_SUCCESS) fatal(call, "PMIx_Put of %s failed: %s", key.c_str(), PMIx_Error_string(rc));
}

void PmixBoot::exchange(const char* call) {
  pmix_info_t collect;
  bool yes = true;
  PMIX_INFO_LOAD(&collect, PMIX_COLLECT_DATA, &yes, PMIX_BOOL);
  const pmix_status_t rc = PMIx_Fence(nullptr, 0, &collect, 1);
  if (rc != PMIX_SUCCESS) fatal(call, "PMIx_Fence failed: %s", PMIx_Error_string(rc));
}

std::string PmixBoot::get(const char* call, const std::string& key, int pe) const {
  pmix_proc_t peer;
  PMIX_LOAD_PROCID(&peer, self.nspace, static_cast<pmix_rank_t>(pe));
  pmix_value_t* got = nullptr;
  const pmix_status_t rc = PMIx_Get(&peer, key.c_str(), nullptr, 0, &got);
  if (rc != PMIX_SUCCESS || got == nullptr || got->type != PMIX_BYTE_OBJECT)
    fatal(call, "cannot read %s of PE %d through PMIx: %s", key.c_str(), pe, PMIx_Error_string(rc));
  std::string blob(got->data.bo.bytes, got->data.bo.size);
  PMIX_VALUE_RELEASE(got);
  return blob;
}

namespace {
struct FenceResult {
  std::atomic<bool> done{false};
  pmix_status_t status = PMIX_SUCCESS;
};

void on_fence_done(pmix_status_t status, void* cbdata) {
  auto* result = static_cast<FenceResult*>(cbdata);
  result->status = status;
  result->done.store(true, std::memory_order_release);
}
}  // namespace

// Non-blocking underneath, waited for like any other wait: the network keeps progressing,
// since peers that have not reached the fence yet may still need this PE to complete their
// operations (a manual-progress provider moves a read back only when its target polls).
void PmixBoot::fence(const char* call) {
  FenceResult result;
  pmix_status_t rc = PMIx_Fence_nb(nullptr, 0, nullptr, 0, on_fence_done, &result);
  if (rc == PMIX_OPERATION_SUCCEEDED) return;
  if (rc == PMIX_SUCCESS) {
    wait_until_ready(call, [&] { return result.done.load(std::memory_order_acquire); });
    rc = result.status;
  }
  if (rc != PMIX_SUCCESS) fatal(call, "PMIx_Fence failed: %s", PMIx_Error_string(rc));
}

void PmixBoot::abort_job(int status, const char* message) {
  if (up_) PMIx_Abort(status, message, nullptr, 0);
}

}  // namespace tandem
