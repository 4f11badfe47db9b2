#include <lv2/core/lv2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_list.h"

// LV2 descriptors for the same plugins (URIs urn:deepfilterkit:<label>); their ports are described
// in Plugins/dfkit.lv2/dfkit.ttl (written by plugin-host ttl) in the same order. No host feature
// is required.

struct lv2_plugin {
    LV2_Descriptor descriptor;
    int32_t index;
};

static LV2_Handle instantiate(const LV2_Descriptor *descriptor, double sample_rate, const char *bundle_path,
                              const LV2_Feature *const *features) {
    (void)features;
    const struct lv2_plugin *plugin = (const struct lv2_plugin *)descriptor;
    // The bundle folder stands in for the shared object's path: the models are looked for above it.
    char path[4096];
    size_t length = bundle_path != NULL ? strlen(bundle_path) : 0;
    if (length + sizeof("/dfkit.so") > sizeof path) length = 0;
    if (length > 0) memcpy(path, bundle_path, length);
    if (length > 0 && path[length - 1] == '/') length -= 1;
    memcpy(path + length, "/dfkit.so", sizeof("/dfkit.so"));
    return dfkit_plugin_instantiate(plugin->index, sample_rate, length > 0 ? path : "");
}

static void connect_port(LV2_Handle handle, uint32_t index, void *data) { dfkit_plugin_connect(handle, index, data); }
static void activate(LV2_Handle handle) { dfkit_plugin_activate(handle); }
static void run(LV2_Handle handle, uint32_t count) { dfkit_plugin_run(handle, count); }
static void cleanup(LV2_Handle handle) { dfkit_plugin_cleanup(handle); }

static const void *extension_data(const char *uri) {
    (void)uri;
    return NULL;
}

static struct lv2_plugin *plugins = NULL;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void describe_all(void) {
    int count = plugin_list_count();
    struct lv2_plugin *made = calloc((size_t)(count > 0 ? count : 1), sizeof *made);
    if (made == NULL) return;
    for (int index = 0; index < count; index++) {
        const char *label = dfkit_plugin_label(index);
        size_t size = strlen("urn:deepfilterkit:") + strlen(label) + 1;
        char *uri = malloc(size);
        if (uri == NULL) return;
        snprintf(uri, size, "urn:deepfilterkit:%s", label);
        made[index] = (struct lv2_plugin){{uri, instantiate, connect_port, activate, run, NULL, cleanup, extension_data}, index};
    }
    plugins = made;
}

LV2_SYMBOL_EXPORT const LV2_Descriptor *lv2_descriptor(uint32_t index) {
    pthread_once(&once, describe_all);
    return plugins != NULL && index < (uint32_t)plugin_list_count() ? &plugins[index].descriptor : NULL;
}
