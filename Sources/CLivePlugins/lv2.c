#include <lv2/core/lv2.h>
#include <stdlib.h>
#include <string.h>

#include "dfkit_plugin.h"

// LV2 descriptors for the same three plugins (URIs urn:deepfilterkit:<label>); the ports are
// described in Plugins/dfkit.lv2/dfkit.ttl in the layouts' order. No host feature is required.

struct lv2_instance {
    const struct dfkit_plugin_layout *layout;
    void *plugin;
};

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double sample_rate, const char *bundle_path,
                              const LV2_Feature *const *features) {
    (void)features;
    const struct dfkit_plugin_layout *layout = NULL;
    for (int kind = 0; kind < DFKIT_PLUGIN_KIND_COUNT; kind++) {
        if (strcmp(descriptor->URI + strlen("urn:deepfilterkit:"), dfkit_plugin_layouts[kind].label) == 0) layout = &dfkit_plugin_layouts[kind];
    }
    if (layout == NULL) return NULL;
    // The bundle folder stands in for the shared object's path: the models are looked for above it.
    char path[4096];
    size_t length = bundle_path != NULL ? strlen(bundle_path) : 0;
    if (length + sizeof("/dfkit.so") > sizeof path) length = 0;
    if (length > 0) memcpy(path, bundle_path, length);
    if (length > 0 && path[length - 1] == '/') length -= 1;
    memcpy(path + length, "/dfkit.so", sizeof("/dfkit.so"));
    void *plugin = dfkit_plugin_instantiate(layout->kind, sample_rate, length > 0 ? path : "");
    if (plugin == NULL) return NULL;
    struct lv2_instance *instance = calloc(1, sizeof *instance);
    if (instance == NULL) {
        dfkit_plugin_cleanup(plugin);
        return NULL;
    }
    instance->layout = layout;
    instance->plugin = plugin;
    return instance;
}

static void connect_port(LV2_Handle handle, uint32_t index, void *data) {
    struct lv2_instance *instance = handle;
    if (instance == NULL || index >= instance->layout->port_count) return;
    const struct dfkit_port *port = &instance->layout->ports[index];
    dfkit_plugin_connect(instance->plugin, port->role, port->channel, data);
}

static void activate(LV2_Handle handle) {
    struct lv2_instance *instance = handle;
    if (instance != NULL) dfkit_plugin_activate(instance->plugin);
}

static void run(LV2_Handle handle, uint32_t count) {
    struct lv2_instance *instance = handle;
    if (instance != NULL) dfkit_plugin_run(instance->plugin, count);
}

static void cleanup(LV2_Handle handle) {
    struct lv2_instance *instance = handle;
    if (instance == NULL) return;
    dfkit_plugin_cleanup(instance->plugin);
    free(instance);
}

static const void *extension_data(const char *uri) {
    (void)uri;
    return NULL;
}

#define DESCRIPTOR(label) {"urn:deepfilterkit:" label, instantiate, connect_port, activate, run, NULL, cleanup, extension_data}

static const LV2_Descriptor descriptors[DFKIT_PLUGIN_KIND_COUNT] = {
    DESCRIPTOR("dfkit_dfn3_mono"),
    DESCRIPTOR("dfkit_dfn3_stereo"),
    DESCRIPTOR("dfkit_gtcrn_mono"),
};

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    return index < DFKIT_PLUGIN_KIND_COUNT ? &descriptors[index] : NULL;
}
