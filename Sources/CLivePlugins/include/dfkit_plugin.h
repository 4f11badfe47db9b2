#ifndef DFKIT_PLUGIN_H
#define DFKIT_PLUGIN_H

#include <stdint.h>

// The plugins' C ABI, implemented in Swift (Sources/LivePlugins/PluginEntryPoints.swift). The Swift
// side makes the plugins from the models it finds above the shared object (each model's options
// become control ports); the LADSPA and LV2 descriptors here are filled from what it describes.

enum dfkit_port_kind {
    DFKIT_PORT_AUDIO_INPUT = 0,
    DFKIT_PORT_AUDIO_OUTPUT = 1,
    DFKIT_PORT_CONTROL = 2,   // an input control with a range and a default
    DFKIT_PORT_TOGGLE = 3,    // an input control that is on or off (enable)
    DFKIT_PORT_LATENCY = 4,   // an output control: the latency in samples
};

// How many plugins there are; the first call makes the list from the models found above
// plugin_path (the shared object's own path).
int32_t dfkit_plugin_count(const char *plugin_path);
const char *dfkit_plugin_label(int32_t plugin);
const char *dfkit_plugin_name(int32_t plugin);
const char *dfkit_plugin_copyright(int32_t plugin);
unsigned long dfkit_plugin_unique_id(int32_t plugin);
int32_t dfkit_plugin_port_count(int32_t plugin);
// The port's kind (dfkit_port_kind), or -1 when plugin or port does not exist.
int32_t dfkit_plugin_port(int32_t plugin, int32_t port, const char **name, const char **symbol, float *minimum, float *maximum,
                          float *default_value);

// NULL (with the reason on stderr) when the model is missing or the rate cannot be served.
void *dfkit_plugin_instantiate(int32_t plugin, double sample_rate, const char *plugin_path);
void dfkit_plugin_connect(void *instance, unsigned long port, float *data);
void dfkit_plugin_activate(void *instance);
void dfkit_plugin_run(void *instance, unsigned long count);
void dfkit_plugin_cleanup(void *instance);

#endif
