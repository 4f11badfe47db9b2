#ifndef DFKIT_PLUGIN_H
#define DFKIT_PLUGIN_H

#include <stdint.h>

// The plugins' C ABI, implemented in Swift (Sources/LivePlugins/PluginEntryPoints.swift). The
// descriptors here own the port layout; the Swift side learns each port's role and channel.

enum dfkit_plugin_kind { DFKIT_DFN3_MONO = 0, DFKIT_DFN3_STEREO = 1, DFKIT_GTCRN_MONO = 2, DFKIT_PLUGIN_KIND_COUNT = 3 };

enum dfkit_port_role {
    DFKIT_AUDIO_INPUT = 0,
    DFKIT_AUDIO_OUTPUT = 1,
    DFKIT_ATTENUATION_LIMIT = 2,
    DFKIT_POST_FILTER_BETA = 3,
    DFKIT_ENABLE = 4,
    DFKIT_LATENCY = 5,
};

// NULL (with the reason on stderr) when the model is missing or the rate cannot be served.
void *dfkit_plugin_instantiate(int32_t kind, double sample_rate, const char *plugin_path);
void dfkit_plugin_connect(void *instance, int32_t role, int32_t channel, float *data);
void dfkit_plugin_activate(void *instance);
void dfkit_plugin_run(void *instance, unsigned long count);
void dfkit_plugin_cleanup(void *instance);

// One port of a plugin, in descriptor order.
struct dfkit_port {
    enum dfkit_port_role role;
    int channel;
    const char *name;    // LADSPA port name
    const char *symbol;  // LV2 symbol (the .ttl uses the same order)
};

struct dfkit_plugin_layout {
    enum dfkit_plugin_kind kind;
    const char *label;
    const char *name;
    unsigned long ladspa_id;
    unsigned long port_count;
    const struct dfkit_port *ports;
};

// The three plugins, indexed by kind.
extern const struct dfkit_plugin_layout dfkit_plugin_layouts[DFKIT_PLUGIN_KIND_COUNT];

#endif
