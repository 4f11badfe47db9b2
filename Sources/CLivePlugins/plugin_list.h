#ifndef DFKIT_PLUGIN_LIST_H
#define DFKIT_PLUGIN_LIST_H

#include "dfkit_plugin.h"

// Internal to the shared object: hosts see only ladspa_descriptor and lv2_descriptor.
#define PLUGIN_LIST_API __attribute__((visibility("hidden")))

// The shared object's own path (for the models installed beside it) and the number of plugins,
// asked of the Swift side once, on the first call from either API.
PLUGIN_LIST_API const char *plugin_list_own_path(void);
PLUGIN_LIST_API int plugin_list_count(void);

#endif
