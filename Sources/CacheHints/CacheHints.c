// CacheHints is header-only (static inline functions); SwiftPM needs a source file per C target.
#include "CacheHints.h"
