#ifndef DFKIT_HOST_INSTANCE_H
#define DFKIT_HOST_INSTANCE_H

#include "dfkit_plugin.h"

// What a LADSPA or LV2 handle points to: the plugin's layout (to map a port index to its role and
// channel) and the Swift instance behind dfkit_plugin_*. Both descriptors' callbacks are these
// functions under each API's signature; each tolerates a NULL handle from a hostile host.
struct host_instance {
    const struct dfkit_plugin_layout *layout;
    void *plugin;
};

// Internal to the shared object: hosts see only ladspa_descriptor and lv2_descriptor.
#define HOST_INSTANCE_API __attribute__((visibility("hidden")))

// Takes ownership of `plugin`; NULL (with the plugin cleaned up) when out of memory or given none.
HOST_INSTANCE_API struct host_instance *host_instance_new(const struct dfkit_plugin_layout *layout, void *plugin);
HOST_INSTANCE_API void host_instance_connect(struct host_instance *instance, unsigned long index, float *data);
HOST_INSTANCE_API void host_instance_activate(struct host_instance *instance);
HOST_INSTANCE_API void host_instance_run(struct host_instance *instance, unsigned long count);
HOST_INSTANCE_API void host_instance_free(struct host_instance *instance);

#endif
