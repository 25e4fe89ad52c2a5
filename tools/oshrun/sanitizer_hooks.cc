// Under --enable-sanitizers: PMIx_server_init keeps a few allocations for the life of
// the process that PMIx_server_finalize does not free.  They are the library's, not
// oshrun's, and LeakSanitizer would otherwise turn every job's exit status into a failure.

#if defined(__SANITIZE_ADDRESS__)
#define OSHRUN_HAS_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(leak_sanitizer)
#define OSHRUN_HAS_LSAN 1
#endif
#endif

#if defined(OSHRUN_HAS_LSAN)
extern "C" const char* __lsan_default_suppressions() { return "leak:libpmix.so\n"; }
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
#endif
