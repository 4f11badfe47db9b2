#include "dfkit_plugin.h"

// Port order is the LADSPA descriptors' and the LV2 bundle's (Plugins/dfkit.lv2/dfkit.ttl).

static const struct dfkit_port dfn3_mono_ports[] = {
    {DFKIT_AUDIO_INPUT, 0, "Input", "in"},
    {DFKIT_AUDIO_OUTPUT, 0, "Output", "out"},
    {DFKIT_ATTENUATION_LIMIT, 0, "Attenuation limit (dB)", "atten_lim"},
    {DFKIT_POST_FILTER_BETA, 0, "Post-filter beta", "pf_beta"},
    {DFKIT_ENABLE, 0, "Enable", "enable"},
    {DFKIT_LATENCY, 0, "latency", "latency"},
};

static const struct dfkit_port dfn3_stereo_ports[] = {
    {DFKIT_AUDIO_INPUT, 0, "Input L", "in_l"},
    {DFKIT_AUDIO_INPUT, 1, "Input R", "in_r"},
    {DFKIT_AUDIO_OUTPUT, 0, "Output L", "out_l"},
    {DFKIT_AUDIO_OUTPUT, 1, "Output R", "out_r"},
    {DFKIT_ATTENUATION_LIMIT, 0, "Attenuation limit (dB)", "atten_lim"},
    {DFKIT_POST_FILTER_BETA, 0, "Post-filter beta", "pf_beta"},
    {DFKIT_ENABLE, 0, "Enable", "enable"},
    {DFKIT_LATENCY, 0, "latency", "latency"},
};

static const struct dfkit_port gtcrn_mono_ports[] = {
    {DFKIT_AUDIO_INPUT, 0, "Input", "in"},
    {DFKIT_AUDIO_OUTPUT, 0, "Output", "out"},
    {DFKIT_ATTENUATION_LIMIT, 0, "Attenuation limit (dB)", "atten_lim"},
    {DFKIT_ENABLE, 0, "Enable", "enable"},
    {DFKIT_LATENCY, 0, "latency", "latency"},
};

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

const struct dfkit_plugin_layout dfkit_plugin_layouts[DFKIT_PLUGIN_KIND_COUNT] = {
    {DFKIT_DFN3_MONO, "dfkit_dfn3_mono", "DeepFilterKit DeepFilterNet3 noise suppression (mono)", 0xDF0001,
     COUNT(dfn3_mono_ports), dfn3_mono_ports},
    {DFKIT_DFN3_STEREO, "dfkit_dfn3_stereo", "DeepFilterKit DeepFilterNet3 noise suppression (stereo)", 0xDF0002,
     COUNT(dfn3_stereo_ports), dfn3_stereo_ports},
    {DFKIT_GTCRN_MONO, "dfkit_gtcrn_mono", "DeepFilterKit GTCRN noise suppression (mono)", 0xDF0003,
     COUNT(gtcrn_mono_ports), gtcrn_mono_ports},
};
