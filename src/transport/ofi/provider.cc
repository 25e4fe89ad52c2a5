#include "transport/ofi/provider.h"

#include <rdma/fabric.h>
#include <rdma/fi_errno.h>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "core/error.h"

namespace tandem::ofi {

namespace {

// What the engine needs of every provider (atomics it can do without: software ones).
constexpr uint64_t kCaps =
    FI_RMA | FI_MSG | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV;
// The modes and registration modes the engine follows when a provider imposes them.
constexpr uint64_t kModes = FI_CONTEXT | FI_CONTEXT2;
constexpr int kMrModes =
    FI_MR_LOCAL | FI_MR_RAW | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_ENDPOINT;
constexpr int kNever = INT_MAX;

struct Bit {
  uint64_t bit;
  const char* name;
};
constexpr Bit kModeNames[] = {{FI_CONTEXT, "FI_CONTEXT"},       {FI_MSG_PREFIX, "FI_MSG_PREFIX"},
                              {FI_ASYNC_IOV, "FI_ASYNC_IOV"},   {FI_RX_CQ_DATA, "FI_RX_CQ_DATA"},
                              {FI_LOCAL_MR, "FI_LOCAL_MR"},     {FI_NOTIFY_FLAGS_ONLY, "FI_NOTIFY_FLAGS_ONLY"},
                              {FI_RESTRICTED_COMP, "FI_RESTRICTED_COMP"}, {FI_CONTEXT2, "FI_CONTEXT2"},
                              {FI_BUFFERED_RECV, "FI_BUFFERED_RECV"}};
constexpr Bit kMrModeNames[] = {{FI_MR_LOCAL, "FI_MR_LOCAL"},           {FI_MR_RAW, "FI_MR_RAW"},
                                {FI_MR_VIRT_ADDR, "FI_MR_VIRT_ADDR"},   {FI_MR_ALLOCATED, "FI_MR_ALLOCATED"},
                                {FI_MR_PROV_KEY, "FI_MR_PROV_KEY"},     {FI_MR_MMU_NOTIFY, "FI_MR_MMU_NOTIFY"},
                                {FI_MR_RMA_EVENT, "FI_MR_RMA_EVENT"},   {FI_MR_ENDPOINT, "FI_MR_ENDPOINT"},
                                {FI_MR_HMEM, "FI_MR_HMEM"},             {FI_MR_COLLECTIVE, "FI_MR_COLLECTIVE"}};

template <size_t N>
std::string bit_names(uint64_t bits, const Bit (&names)[N]) {
  std::string out;
  for (const Bit& b : names)
    if (bits & b.bit) out += (out.empty() ? "" : "|") + std::string(b.name);
  if (!out.empty()) return out;
  char hex[24];
  snprintf(hex, sizeof hex, "%#llx", static_cast<unsigned long long>(bits));  // a bit this list does not name
  return hex;
}

// The provider's first layer: "tcp" of "tcp;ofi_rxm".
std::string core_of(const std::string& name) { return name.substr(0, name.find(';')); }

// Where choose() tries a provider when none is named: lower first; kNever, only when named.
int rank(const std::string& name) {
  const std::string core = core_of(name);
  if (core == "shm" || core == "sm2" || name.find("ofi_mrail") != std::string::npos || name.find("ofi_hook") != std::string::npos)
    return kNever;
  for (const char* rdma : {"cxi", "opx", "psm3", "psm2", "verbs", "efa", "ucx", "psm"})
    if (core == rdma) return 0;
  if (core == "tcp") return 1;
  if (core == "net") return 3;
  if (core == "sockets") return 4;
  if (core == "udp") return 5;
  return 2;  // a provider this list does not know: after tcp, which is known to serve
}

// Why a provider that grants what the engine asks, in `order`, cannot serve all the same:
// faults of the provider's in the libfabric at hand, shown with libfabric alone by
// test/fabric/provider_check where that was possible (empty: none known).
std::string fault_of(const std::string& name, Order order) {
  if (core_of(name) == "shm" && order == Order::None && fi_version() < FI_VERSION(1, 18))
    return "without its write order (TANDEM_OFI_REQUIRE=unordered) libfabric 1.17's shm reads data of earlier "
           "writes back and crashes in fi_cq_read once more than two PEs talk (seen with Tandem's rma_types on "
           "4 PEs; 2 PEs pass)";
  if (name.find("ofi_mrail") != std::string::npos)
    return "it grants FI_ATOMIC, but its endpoints have no atomic operations (asking for one crashes), and "
           "messages sent through it never arrive, so Tandem's software atomics cannot serve either";
  if (name.find("ofi_rxd") != std::string::npos && fi_version() < FI_VERSION(2, 5))
    return "before libfabric 2.5 its fetching atomics complete before their result arrives and crash the target, "
           "its sends are dropped when its transmit entries run out (fixed in 2.4), and two endpoints that stream "
           "writes at each other stall for good";
  return {};
}

fi_info* query(const std::string& name, Order order, bool atomics, bool relaxed, int* rc) {
  fi_info* hints = fi_allocinfo();
  if (!hints) fatal("shmem_init", "libfabric: out of memory");
  hints->caps = kCaps | (atomics ? FI_ATOMIC : 0);
  hints->ep_attr->type = FI_EP_RDM;
  hints->mode = kModes;
  hints->domain_attr->mr_mode = kMrModes;
  if (!relaxed) {
    hints->domain_attr->threading = FI_THREAD_DOMAIN;        // the engine serialises its calls itself
    hints->domain_attr->data_progress = FI_PROGRESS_MANUAL;  // every wait drives progress
  }
  // Messages carry software atomics; with Order All they must not pass earlier writes
  // either (a fence orders puts before atomics).
  if (order == Order::All) hints->tx_attr->msg_order = FI_ORDER_RAW | FI_ORDER_WAW | FI_ORDER_SAW;
  else if (order == Order::Rma) hints->tx_attr->msg_order = FI_ORDER_RMA_RAW | FI_ORDER_RMA_WAW;
  else hints->tx_attr->op_flags = FI_DELIVERY_COMPLETE;
  if (!name.empty()) hints->fabric_attr->prov_name = strdup(name.c_str());
  fi_info* found = nullptr;
  *rc = fi_getinfo(FI_VERSION(1, 11), nullptr, nullptr, 0, hints, &found);
  fi_freeinfo(hints);
  if (*rc == 0) return found;
  if (found) fi_freeinfo(found);
  return nullptr;
}

// Every entry libfabric lists when asked for nothing (the caller frees the list).
fi_info* everything() {
  fi_info* all = nullptr;
  if (fi_getinfo(FI_VERSION(1, 11), nullptr, nullptr, 0, nullptr, &all) != 0) return nullptr;
  return all;
}

// Why `name` cannot serve, from what it offers when asked for nothing.
std::string diagnose(const std::string& name, int rc) {
  fi_info* all = everything();
  bool listed = false, rdm = false, fits = false;
  std::string lack;  // the first reason an entry of the provider's cannot serve
  for (fi_info* i = all; i; i = i->next) {
    if (name != i->fabric_attr->prov_name) continue;
    listed = true;
    if (i->ep_attr->type != FI_EP_RDM) continue;
    rdm = true;
    std::string why;
    if ((i->caps & kCaps) != kCaps)
      why = (i->caps & FI_RMA) ? "has no messages (FI_MSG)" : "has no RMA (FI_RMA)";
    else if (const uint64_t modes = i->mode & ~kModes)
      why = "requires the mode " + bit_names(modes, kModeNames) + ", which Tandem does not follow";
    else if (const uint64_t mr = static_cast<uint64_t>(i->domain_attr->mr_mode) & ~static_cast<uint64_t>(kMrModes))
      why = "requires the registration mode " + bit_names(mr, kMrModeNames) + ", which Tandem does not follow";
    if (why.empty()) fits = true;
    else if (lack.empty()) lack = why;
  }
  if (all) fi_freeinfo(all);
  if (!listed)
    return "libfabric lists no provider " + name + " here (fi_info -l lists those it has" +
           (name.find("ofi_mrail") != std::string::npos ? "; ofi_mrail appears only with FI_OFI_MRAIL_ADDR set)" : ")");
  if (!rdm) return name + " has no reliable datagram endpoints (FI_EP_RDM)";
  if (!fits) return name + " " + lack;
  return name + " refuses what Tandem asks (" + std::string(fi_strerror(-rc)) +
         "): ordered or delivery-complete writes, with manual or automatic progress";
}

// What `info` imposes, with `required` added; `emulated`: what of `required` it does not.
Rules in_force(const fi_info* info, const Rules& required, Rules* emulated) {
  const uint64_t modes = info->mode | info->tx_attr->mode | info->rx_attr->mode;
  const int mr = info->domain_attr->mr_mode;
  Rules imposed;
  imposed.context = (modes & kModes) != 0;
  imposed.mr_local = (mr & FI_MR_LOCAL) != 0;
  imposed.mr_raw = (mr & FI_MR_RAW) != 0;
  imposed.mr_endpoint = (mr & FI_MR_ENDPOINT) != 0;
  imposed.virtual_addresses = (mr & FI_MR_VIRT_ADDR) != 0;
  imposed.provider_keys = (mr & FI_MR_PROV_KEY) != 0;
  *emulated = required;
  emulated->context = required.context && !imposed.context;
  emulated->mr_local = required.mr_local && !imposed.mr_local;
  Rules r = imposed;
  r.context = imposed.context || required.context;
  r.mr_local = imposed.mr_local || required.mr_local;
  r.unordered = required.unordered;
  r.no_atomics = required.no_atomics;
  return r;
}

// The provider `name`, with the strongest order it grants, its atomics where it has them.
Choice resolve(const std::string& name, const Rules& required) {
  Choice c;
  int rc = 0;
  for (bool atomics : {true, false}) {
    if (atomics && required.no_atomics) continue;
    for (Order order : {Order::All, Order::Rma, Order::None}) {
      if (required.unordered && order != Order::None) continue;
      for (bool relaxed : {false, true}) {
        fi_info* found = query(name, order, atomics, relaxed, &rc);
        if (found) {
          // The name may be a core provider that libfabric serves through a layer over it.
          const std::string as = found->fabric_attr->prov_name;
          if (const std::string fault = fault_of(as, order); !fault.empty()) {
            fi_freeinfo(found);
            c.problem = as + " cannot serve: " + fault;
            return c;
          }
          c.info = found;
          c.order = order;
          c.atomics = atomics;
          c.rules = in_force(found, required, &c.emulated);
          c.rules.no_atomics = !atomics;
          return c;
        }
      }
    }
  }
  c.problem = diagnose(name, rc);
  return c;
}

// The names of the providers libfabric lists with reliable datagram endpoints (all of them
// with `any`), in the order choose() tries them.
std::vector<std::string> ranked_names(bool any) {
  std::vector<std::string> names;
  fi_info* all = everything();
  for (fi_info* i = all; i; i = i->next) {
    const std::string name = i->fabric_attr->prov_name;
    if ((any || i->ep_attr->type == FI_EP_RDM) && std::find(names.begin(), names.end(), name) == names.end())
      names.push_back(name);
  }
  if (all) fi_freeinfo(all);
  std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
  return names;
}

}  // namespace

bool talks_through_sockets(const std::string& name) {
  const std::string core = core_of(name);
  return core == "tcp" || core == "net" || core == "sockets";
}

const char* order_name(Order order) {
  switch (order) {
    case Order::All: return "writes, reads, atomics and messages in order";
    case Order::Rma: return "writes and reads in order";
    case Order::None: return "no order: every write delivery-complete";
  }
  return "";
}

std::string Rules::describe() const {
  std::string out;
  auto add = [&](bool on, const char* name) {
    if (on) out += (out.empty() ? "" : ", ") + std::string(name);
  };
  add(context, "FI_CONTEXT2");
  add(mr_local, "FI_MR_LOCAL");
  add(mr_raw, "FI_MR_RAW");
  add(mr_endpoint, "FI_MR_ENDPOINT");
  add(virtual_addresses, "FI_MR_VIRT_ADDR");
  add(provider_keys, "FI_MR_PROV_KEY");
  add(unordered, "unordered");
  add(no_atomics, "no FI_ATOMIC");
  return out.empty() ? "none" : out;
}

bool parse_required(const std::string& text, Rules* required, std::string* bad) {
  std::istringstream words(text);
  std::string word;
  while (std::getline(words, word, ',')) {
    word.erase(0, word.find_first_not_of(' '));
    word.erase(word.find_last_not_of(' ') + 1);
    if (word.empty()) continue;
    if (word == "context") required->context = true;
    else if (word == "mr_local") required->mr_local = true;
    else if (word == "unordered") required->unordered = true;
    else if (word == "no_atomics") required->no_atomics = true;
    else {
      *bad = word;
      return false;
    }
  }
  return true;
}

Choice choose(const std::string& name, const Rules& required) {
  if (!name.empty()) return resolve(name, required);
  std::string refusals;
  for (const std::string& candidate : ranked_names(false)) {
    if (rank(candidate) == kNever) continue;
    Choice c = resolve(candidate, required);
    if (c.info) return c;
    refusals += (refusals.empty() ? "" : "; ") + c.problem;
  }
  Choice none;
  none.problem = refusals.empty() ? "libfabric lists no provider with reliable datagram endpoints" : refusals;
  return none;
}

bool emulates_atomics(const std::string& prov_name) { return prov_name.find("ofi_rxm") != std::string::npos; }

std::vector<ProviderReport> survey(const Rules& required) {
  std::vector<ProviderReport> rows;
  bool chosen = false;
  for (const std::string& name : ranked_names(true)) {
    ProviderReport row;
    row.name = name;
    row.automatic = rank(name) != kNever;
    Choice c = resolve(name, required);
    row.usable = c.info != nullptr;
    if (c.info) {
      row.chosen = row.automatic && !chosen;
      chosen = chosen || row.chosen;
      // A provider without reliable datagram endpoints of its own is served by a layer over it.
      const std::string as = c.info->fabric_attr->prov_name;
      row.detail = (as == name ? "" : "as " + as + ": ") + std::string(order_name(c.order)) + "; atomics: " +
                   (!c.atomics            ? "software"
                    : emulates_atomics(as) ? "software (the provider's are messages too)"
                                           : "the provider's where it has them") +
                   "; rules: " + c.rules.describe();
      fi_freeinfo(c.info);
    } else {
      row.detail = c.problem;
    }
    if (core_of(name) == "shm")
      row.detail += "; reaches this machine's processes only (virtual nodes): used only when named";
    else if (name.find("ofi_mrail") != std::string::npos)
      row.detail += "; several rails of another provider (FI_OFI_MRAIL_ADDR): used only when named";
    rows.push_back(row);
  }
  return rows;
}

}  // namespace tandem::ofi
