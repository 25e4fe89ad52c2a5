// Transport's calls, each forwarded to the engine (engine.h).
#include "transport/ofi/transport.h"

#include <utility>

#include "transport/ofi/engine.h"

namespace tandem::ofi {

Transport::Transport() : engine_(std::make_unique<Engine>()) {}
Transport::~Transport() = default;

void Transport::open(const char* call, const Settings& settings, char* const bases[kSegments], const size_t sizes[kSegments]) { engine_->open(call, settings, bases, sizes); }
std::string Transport::card() const { return engine_->card(); }
void Transport::connect(const char* call, int pes, int my_pe, CardOf card_of) {
  engine_->connect(call, pes, my_pe, std::move(card_of));
}
void Transport::close() { engine_->close(); }
bool Transport::is_open() const { return engine_->is_open(); }
const std::string& Transport::provider() const { return engine_->provider(); }
const Rules& Transport::rules() const { return engine_->rules(); }
const Rules& Transport::emulated() const { return engine_->emulated(); }
Order Transport::order() const { return engine_->order(); }
void Transport::put(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes, bool coalesce) { engine_->put(call, pe, segment, offset, source, bytes, coalesce); }
void Transport::put_unconfirmed(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes, const uint64_t* data) { engine_->put_unconfirmed(call, pe, segment, offset, source, bytes, data); }
void Transport::put_word(const char* call, int pe, int segment, uint64_t offset, uint64_t value) { engine_->put_word(call, pe, segment, offset, value); }
void Transport::flush(const char* call) { engine_->flush(call); }
void Transport::poll(const char* call, AwaitedPe* awaited) { engine_->poll(call, awaited); }
void Transport::flush_if_idle() { engine_->flush_if_idle(); }
Transport::Stats Transport::stats() const { return engine_->stats(); }
void Transport::get(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) { engine_->get(call, pe, segment, offset, dest, bytes); }
void Transport::get_now(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes) { engine_->get_now(call, pe, segment, offset, dest, bytes); }
void Transport::put_notify(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes, uint64_t data) { engine_->put_notify(call, pe, segment, offset, source, bytes, data); }
void Transport::get_notify_nbi(const char* call, int pe, int segment, uint64_t offset, void* dest, size_t bytes, uint64_t data) { engine_->get_notify_nbi(call, pe, segment, offset, dest, bytes, data); }
void Transport::notify(const char* call, int pe, uint64_t data) { engine_->notify(call, pe, data); }
void Transport::on_notification(void (*handler)(uint64_t data)) { engine_->on_notification(handler); }
bool Transport::notifies_by_data() const { return engine_->notifies_by_data(); }
bool Transport::writes_land_in_order() const { return engine_->writes_land_in_order(); }
std::optional<uint64_t> Transport::load_landed(const uint64_t* word) { return engine_->load_landed(word); }
bool Transport::native(AtomicType type) const { return engine_->native(type); }
void Transport::atomic(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type, const void* operand, const void* compare, void* result) { engine_->atomic(call, pe, segment, offset, op, type, operand, compare, result); }
void Transport::warm_up(const char* call, int pe) { engine_->warm_up(call, pe); }
bool Transport::put_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, const void* source, size_t source_stride, size_t block, size_t blocks) { return engine_->put_strided(call, pe, segment, offset, stride, source, source_stride, block, blocks); }
bool Transport::get_strided(const char* call, int pe, int segment, uint64_t offset, size_t stride, void* dest, size_t dest_stride, size_t block, size_t blocks) { return engine_->get_strided(call, pe, segment, offset, stride, dest, dest_stride, block, blocks); }
void Transport::atomic_array(const char* call, int pe, int segment, uint64_t offset, AtomicOp op, AtomicType type, const void* operands, size_t count) { engine_->atomic_array(call, pe, segment, offset, op, type, operands, count); }
void Transport::put_signal_nbi(const char* call, int pe, int segment, uint64_t offset, const void* source, size_t bytes, int signal_segment, uint64_t signal_offset, uint64_t value, bool add) { engine_->put_signal_nbi(call, pe, segment, offset, source, bytes, signal_segment, signal_offset, value, add); }
bool Transport::signal_rides_write(int signal_segment, uint64_t signal_offset, uint64_t value) const { return engine_->signal_rides_write(signal_segment, signal_offset, value); }
bool Transport::signals_ride_writes() const { return engine_->signals_ride_writes(); }
bool Transport::cpu_signals() const { return engine_->cpu_signals(); }
void Transport::quiet(const char* call) { engine_->quiet(call); }
void Transport::order_writes(const char* call) { engine_->order_writes(call); }
void Transport::wait_reads(const char* call) { engine_->wait_reads(call); }
void Transport::wait_writes(const char* call) { engine_->wait_writes(call); }
bool Transport::in_flight() { return engine_->in_flight(); }
bool Transport::maybe_in_flight() const { return engine_->maybe_in_flight(); }
void Transport::progress() { engine_->progress(); }
void Transport::look() { engine_->look(); }
void Transport::note_present() { engine_->note_present(); }
void Transport::wait_for_activity(int timeout_us, bool (*busy)(), bool requests) {
  engine_->wait_for_activity(timeout_us, busy, requests);
}
bool Transport::rest_while_present(int64_t window_ns) { return engine_->rest_while_present(window_ns); }
void Transport::nudge(int pe) { engine_->nudge(pe); }
bool Transport::pe_driving() { return engine_->pe_driving(); }
void Transport::wake_if_sleeping() { engine_->wake_if_sleeping(); }
void Transport::nbi_posted() { engine_->nbi_posted(); }
void Transport::push() { engine_->push(); }
void Transport::wake() { engine_->wake(); }
size_t Transport::inject_size() const { return engine_->inject_size(); }
void Transport::set_timeout(double seconds) { engine_->set_timeout(seconds); }

}  // namespace tandem::ofi
