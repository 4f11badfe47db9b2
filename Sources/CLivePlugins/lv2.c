#include <lv2/core/lv2.h>
#include <string.h>

#include "dfkit_plugin.h"
#include "host_instance.h"

// LV2 descriptors for the same three plugins (URIs urn:deepfilterkit:<label>); the ports are
// described in Plugins/dfkit.lv2/dfkit.ttl in the layouts' order. No host feature is required.

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
    return host_instance_new(layout, dfkit_plugin_instantiate(layout->kind, sample_rate, length > 0 ? path : ""));
}

static void connect_port(LV2_Handle handle, uint32_t index, void *data) { host_instance_connect(handle, index, data); }
static void activate(LV2_Handle handle) { host_instance_activate(handle); }
static void run(LV2_Handle handle, uint32_t count) { host_instance_run(handle, count); }
static void cleanup(LV2_Handle handle) { host_instance_free(handle); }

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
