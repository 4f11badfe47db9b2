#define _GNU_SOURCE
#include <dlfcn.h>
#include <ladspa.h>
#include <stddef.h>

#include "dfkit_plugin.h"
#include "host_instance.h"

// LADSPA descriptors for the three plugins; the work happens behind dfkit_plugin_*.

// The shared object's own path, for finding the models installed beside it (set at load).
static const char *own_path = "";

static LADSPA_Handle instantiate(const LADSPA_Descriptor *descriptor, unsigned long sample_rate) {
    const struct dfkit_plugin_layout *layout = descriptor->ImplementationData;
    return host_instance_new(layout, dfkit_plugin_instantiate(layout->kind, (double)sample_rate, own_path));
}

static void connect_port(LADSPA_Handle handle, unsigned long index, LADSPA_Data *data) { host_instance_connect(handle, index, data); }
static void activate(LADSPA_Handle handle) { host_instance_activate(handle); }
static void run(LADSPA_Handle handle, unsigned long count) { host_instance_run(handle, count); }
static void cleanup(LADSPA_Handle handle) { host_instance_free(handle); }

// Port descriptors, names and hints of one plugin, filled once from its layout.
struct ladspa_ports {
    LADSPA_PortDescriptor descriptors[8];
    const char *names[8];
    LADSPA_PortRangeHint hints[8];
};

static struct ladspa_ports ports[DFKIT_PLUGIN_KIND_COUNT];
static LADSPA_Descriptor descriptors[DFKIT_PLUGIN_KIND_COUNT];

static void describe(int kind) {
    const struct dfkit_plugin_layout *layout = &dfkit_plugin_layouts[kind];
    struct ladspa_ports *p = &ports[kind];
    for (unsigned long i = 0; i < layout->port_count; i++) {
        const struct dfkit_port *port = &layout->ports[i];
        p->names[i] = port->name;
        LADSPA_PortRangeHint hint = {0, 0, 0};
        switch (port->role) {
        case DFKIT_AUDIO_INPUT: p->descriptors[i] = LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO; break;
        case DFKIT_AUDIO_OUTPUT: p->descriptors[i] = LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO; break;
        case DFKIT_ATTENUATION_LIMIT:
            // 100 dB and above: no limit (the default); below 0.01 dB: the input, delayed.
            p->descriptors[i] = LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | LADSPA_HINT_DEFAULT_MAXIMUM, 0, 100};
            break;
        case DFKIT_POST_FILTER_BETA:
            // 0: off (the default); upstream enables it with 0.02. Read when the host activates.
            p->descriptors[i] = LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | LADSPA_HINT_DEFAULT_0, 0, 0.5f};
            break;
        case DFKIT_ENABLE:
            p->descriptors[i] = LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_TOGGLED | LADSPA_HINT_DEFAULT_1, 0, 0};
            break;
        case DFKIT_LATENCY:
            // A default, so that hosts which fill every control port from defaults (sox) can.
            p->descriptors[i] = LADSPA_PORT_OUTPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_INTEGER | LADSPA_HINT_DEFAULT_0, 0, 0};
            break;
        }
        p->hints[i] = hint;
    }
    descriptors[kind] = (LADSPA_Descriptor){
        .UniqueID = layout->ladspa_id,
        .Label = layout->label,
        .Properties = LADSPA_PROPERTY_HARD_RT_CAPABLE,
        .Name = layout->name,
        .Maker = "DeepFilterKit",
        .Copyright = "models: DeepFilterNet3 MIT OR Apache-2.0, GTCRN MIT",
        .PortCount = layout->port_count,
        .PortDescriptors = p->descriptors,
        .PortNames = p->names,
        .PortRangeHints = p->hints,
        .ImplementationData = (void *)layout,
        .instantiate = instantiate,
        .connect_port = connect_port,
        .activate = activate,
        .run = run,
        .run_adding = NULL,
        .set_run_adding_gain = NULL,
        .deactivate = NULL,
        .cleanup = cleanup,
    };
}

__attribute__((constructor)) static void describe_all(void) {
    Dl_info info;
    if (dladdr((void *)&ladspa_descriptor, &info) != 0 && info.dli_fname != NULL) own_path = info.dli_fname;
    for (int kind = 0; kind < DFKIT_PLUGIN_KIND_COUNT; kind++) describe(kind);
}

__attribute__((visibility("default"))) const LADSPA_Descriptor *ladspa_descriptor(unsigned long index) {
    return index < DFKIT_PLUGIN_KIND_COUNT ? &descriptors[index] : NULL;
}
