#include <ladspa.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

#include "plugin_list.h"

// LADSPA descriptors for the plugins the Swift side describes; the work happens behind dfkit_plugin_*,
// which tolerates NULL handles and out-of-range ports from hostile hosts.

static LADSPA_Handle instantiate(const LADSPA_Descriptor *descriptor, unsigned long sample_rate) {
    return dfkit_plugin_instantiate((int32_t)(intptr_t)descriptor->ImplementationData, (double)sample_rate, plugin_list_own_path());
}

static void connect_port(LADSPA_Handle handle, unsigned long index, LADSPA_Data *data) { dfkit_plugin_connect(handle, index, data); }
static void activate(LADSPA_Handle handle) { dfkit_plugin_activate(handle); }
static void run(LADSPA_Handle handle, unsigned long count) { dfkit_plugin_run(handle, count); }
static void cleanup(LADSPA_Handle handle) { dfkit_plugin_cleanup(handle); }

static LADSPA_Descriptor *descriptors = NULL;
static pthread_once_t once = PTHREAD_ONCE_INIT;

// One plugin's ports: descriptors, names and hints from what the Swift side says of each port.
static int describe(int plugin, LADSPA_Descriptor *descriptor) {
    int32_t port_count = dfkit_plugin_port_count(plugin);
    LADSPA_PortDescriptor *kinds = calloc((size_t)port_count, sizeof *kinds);
    const char **names = calloc((size_t)port_count, sizeof *names);
    LADSPA_PortRangeHint *hints = calloc((size_t)port_count, sizeof *hints);
    if (kinds == NULL || names == NULL || hints == NULL) return 0;
    for (int32_t i = 0; i < port_count; i++) {
        const char *symbol = NULL;
        float minimum = 0, maximum = 0, fallback = 0;
        int32_t kind = dfkit_plugin_port(plugin, i, &names[i], &symbol, &minimum, &maximum, &fallback);
        LADSPA_PortRangeHint hint = {0, 0, 0};
        switch (kind) {
        case DFKIT_PORT_AUDIO_INPUT: kinds[i] = LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO; break;
        case DFKIT_PORT_AUDIO_OUTPUT: kinds[i] = LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO; break;
        case DFKIT_PORT_CONTROL: {
            // LADSPA's defaults are a few fixed points of the range: the one that is the default.
            LADSPA_PortRangeHintDescriptor which = fallback == maximum ? LADSPA_HINT_DEFAULT_MAXIMUM
                : fallback == minimum ? LADSPA_HINT_DEFAULT_MINIMUM : fallback == 0 ? LADSPA_HINT_DEFAULT_0 : LADSPA_HINT_DEFAULT_MIDDLE;
            kinds[i] = LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_BOUNDED_BELOW | LADSPA_HINT_BOUNDED_ABOVE | which, minimum, maximum};
            break;
        }
        case DFKIT_PORT_TOGGLE:
            kinds[i] = LADSPA_PORT_INPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_TOGGLED | LADSPA_HINT_DEFAULT_1, 0, 0};
            break;
        default:
            // The latency; a default, so that hosts which fill every control port from defaults (sox) can.
            kinds[i] = LADSPA_PORT_OUTPUT | LADSPA_PORT_CONTROL;
            hint = (LADSPA_PortRangeHint){LADSPA_HINT_INTEGER | LADSPA_HINT_DEFAULT_0, 0, 0};
            break;
        }
        hints[i] = hint;
    }
    *descriptor = (LADSPA_Descriptor){
        .UniqueID = dfkit_plugin_unique_id(plugin),
        .Label = dfkit_plugin_label(plugin),
        .Properties = LADSPA_PROPERTY_HARD_RT_CAPABLE,
        .Name = dfkit_plugin_name(plugin),
        .Maker = "DeepFilterKit",
        .Copyright = dfkit_plugin_copyright(plugin),
        .PortCount = (unsigned long)port_count,
        .PortDescriptors = kinds,
        .PortNames = names,
        .PortRangeHints = hints,
        .ImplementationData = (void *)(intptr_t)plugin,
        .instantiate = instantiate,
        .connect_port = connect_port,
        .activate = activate,
        .run = run,
        .cleanup = cleanup,
    };
    return 1;
}

static void describe_all(void) {
    int count = plugin_list_count();
    LADSPA_Descriptor *made = calloc((size_t)(count > 0 ? count : 1), sizeof *made);
    if (made == NULL) return;
    for (int plugin = 0; plugin < count; plugin++) {
        if (!describe(plugin, &made[plugin])) return;
    }
    descriptors = made;
}

__attribute__((visibility("default"))) const LADSPA_Descriptor *ladspa_descriptor(unsigned long index) {
    pthread_once(&once, describe_all);
    return descriptors != NULL && index < (unsigned long)plugin_list_count() ? &descriptors[index] : NULL;
}
