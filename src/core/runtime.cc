#include "core/runtime.h"

namespace tandem {

Runtime& rt() {
  // Never destroyed: exit paths and atexit handlers may still read it.
  static Runtime* runtime = new Runtime;
  return *runtime;
}

}  // namespace tandem
