#include "host_instance.h"

#include <stdlib.h>

struct host_instance *host_instance_new(const struct dfkit_plugin_layout *layout, void *plugin) {
    if (plugin == NULL) return NULL;
    struct host_instance *instance = calloc(1, sizeof *instance);
    if (instance == NULL) {
        dfkit_plugin_cleanup(plugin);
        return NULL;
    }
    instance->layout = layout;
    instance->plugin = plugin;
    return instance;
}

void host_instance_connect(struct host_instance *instance, unsigned long index, float *data) {
    if (instance == NULL || index >= instance->layout->port_count) return;
    const struct dfkit_port *port = &instance->layout->ports[index];
    dfkit_plugin_connect(instance->plugin, port->role, port->channel, data);
}

void host_instance_activate(struct host_instance *instance) {
    if (instance != NULL) dfkit_plugin_activate(instance->plugin);
}

void host_instance_run(struct host_instance *instance, unsigned long count) {
    if (instance != NULL) dfkit_plugin_run(instance->plugin, count);
}

void host_instance_free(struct host_instance *instance) {
    if (instance == NULL) return;
    dfkit_plugin_cleanup(instance->plugin);
    free(instance);
}
