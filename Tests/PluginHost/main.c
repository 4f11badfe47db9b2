// plugin-host: a small LADSPA/LV2 host for the tests, for what no packaged tool does: any
// sequence of block sizes, hostile call sequences, many instances, and counting what run()
// does on the calling thread (allocations, locks, waits, sleeps, yields: AllocationCounter and
// RealtimeCallCounter interpose them in this process).
//
//   plugin-host ladspa SO LABEL RATE IN OUT [options]
//   plugin-host lv2 SO URI RATE IN OUT --bundle DIR --ports SPEC [options]
//   plugin-host ttl SO DIR
//
// IN and OUT are raw 32-bit float files, channels interleaved (the plugin's audio input count);
// OUT may be "-" to discard. SPEC gives the LV2 ports in index order, one letter each: i audio
// in, o audio out, c control in, l control out (the plugin's .ttl says the same).
// Options:
//   --blocks N[,N…]       block sizes, used in turn (default 256)
//   --control INDEX=VALUE set an input control port (default: 100, 0, 1 … as given per index)
//   --count-realtime      count what run() does after the first --warmup calls (default 64)
//   --zero-runs           call run(0) before every block
//   --unconnected N       run the first N blocks with the audio ports connected to NULL
//   --reactivate          run all of IN once, deactivate, activate, and write the second pass
//   --instances N         instantiate N instances and run all over IN (OUT is instance 0's)
//   --toggle-at N         switch the enable port (the one named by --enable-port) off at frame N
//   --enable-port INDEX   the enable port's index, for --toggle-at
// ttl writes DIR/manifest.ttl and DIR/dfkit.ttl, the LV2 bundle's description of every plugin SO
// offers (dfkit_plugin_count and dfkit_plugin_port, which the descriptors are made from).
// Prints "key value" lines: latency, frames, and with --count-realtime allocations, locks,
// waits, sleeps, yields; run_us_p50, run_us_p99, run_us_max, run_us_total (instance 0's run()
// calls), rss_kb. Exit status 3 when
// instantiate returns NULL.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <ladspa.h>
#include <lv2/core/lv2.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "AllocationCounter.h"
#include "RealtimeCallCounter.h"

#define MAX_PORTS 16
#define MAX_BLOCKS 64

enum port_kind { AUDIO_IN, AUDIO_OUT, CONTROL_IN, CONTROL_OUT };

struct plugin {
    int lv2;
    const LADSPA_Descriptor *ladspa;
    const LV2_Descriptor *lv2_descriptor;
    unsigned long port_count;
    enum port_kind kinds[MAX_PORTS];
    float defaults[MAX_PORTS];
};

struct instance {
    void *handle;
    float controls[MAX_PORTS];
};

static void die(const char *message, const char *detail) {
    fprintf(stderr, "plugin-host: %s%s%s\n", message, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void *instantiate(const struct plugin *p, double rate, const char *bundle) {
    if (p->lv2) {
        const LV2_Feature *features[] = {NULL};
        return p->lv2_descriptor->instantiate(p->lv2_descriptor, rate, bundle, features);
    }
    return p->ladspa->instantiate(p->ladspa, (unsigned long)rate);
}

static void connect(const struct plugin *p, void *handle, unsigned long port, float *data) {
    if (p->lv2) p->lv2_descriptor->connect_port(handle, (uint32_t)port, data);
    else p->ladspa->connect_port(handle, port, data);
}

static void activate(const struct plugin *p, void *handle) {
    if (p->lv2) { if (p->lv2_descriptor->activate) p->lv2_descriptor->activate(handle); }
    else if (p->ladspa->activate) p->ladspa->activate(handle);
}

static void deactivate(const struct plugin *p, void *handle) {
    if (p->lv2) { if (p->lv2_descriptor->deactivate) p->lv2_descriptor->deactivate(handle); }
    else if (p->ladspa->deactivate) p->ladspa->deactivate(handle);
}

static void run(const struct plugin *p, void *handle, unsigned long count) {
    if (p->lv2) p->lv2_descriptor->run(handle, (uint32_t)count);
    else p->ladspa->run(handle, count);
}

static void cleanup(const struct plugin *p, void *handle) {
    if (p->lv2) p->lv2_descriptor->cleanup(handle);
    else p->ladspa->cleanup(handle);
}

static float *read_floats(const char *path, size_t *count) {
    FILE *file = fopen(path, "rb");
    if (!file) die("cannot open input", path);
    fseek(file, 0, SEEK_END);
    long bytes = ftell(file);
    fseek(file, 0, SEEK_SET);
    float *samples = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (bytes > 0 && fread(samples, 1, (size_t)bytes, file) != (size_t)bytes) die("cannot read input", path);
    fclose(file);
    *count = (size_t)bytes / sizeof(float);
    return samples;
}

static long resident_kilobytes(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kilobytes = -1;
    while (status && fgets(line, sizeof line, status)) {
        if (strncmp(line, "VmRSS:", 6) == 0) kilobytes = atol(line + 6);
    }
    if (status) fclose(status);
    return kilobytes;
}

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

// "100.0", "0.5": a float as Turtle writes a decimal.
static void decimal(FILE *file, float value) {
    char text[32];
    snprintf(text, sizeof text, "%g", value);
    fprintf(file, "%s%s", text, strpbrk(text, ".e") ? "" : ".0");
}

static int write_ttl(const char *so, const char *directory) {
    void *library = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!library) die("dlopen failed", dlerror());
    int32_t (*count)(const char *) = (int32_t (*)(const char *))dlsym(library, "dfkit_plugin_count");
    const char *(*label)(int32_t) = (const char *(*)(int32_t))dlsym(library, "dfkit_plugin_label");
    const char *(*name)(int32_t) = (const char *(*)(int32_t))dlsym(library, "dfkit_plugin_name");
    int32_t (*port_count)(int32_t) = (int32_t (*)(int32_t))dlsym(library, "dfkit_plugin_port_count");
    int32_t (*port)(int32_t, int32_t, const char **, const char **, float *, float *, float *) =
        (int32_t (*)(int32_t, int32_t, const char **, const char **, float *, float *, float *))dlsym(library, "dfkit_plugin_port");
    if (!count || !label || !name || !port_count || !port) die("not a DeepFilterKit plugin library", so);
    char path[4096];
    snprintf(path, sizeof path, "%s/manifest.ttl", directory);
    FILE *manifest = fopen(path, "w");
    snprintf(path, sizeof path, "%s/dfkit.ttl", directory);
    FILE *ttl = fopen(path, "w");
    if (!manifest || !ttl) die("cannot write into", directory);
    fprintf(manifest, "@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n");
    fprintf(ttl, "@prefix doap: <http://usefulinc.com/ns/doap#> .\n@prefix lv2: <http://lv2plug.in/ns/lv2core#> .\n"
                 "@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n\n"
                 "# Written by Tests/PluginHost (plugin-host ttl SO DIR) from the plugins the shared object makes of the\n"
                 "# repository's Models/; ports in the LADSPA descriptors' order. The latency port reports, in samples,\n"
                 "# how far the output runs behind the input; it is fixed from instantiation on. Model options take\n"
                 "# effect when the host activates the plugin. dfkit_model_* run the model DFKIT_PLUGIN_MODEL names.\n");
    int32_t plugins = count(so);
    for (int32_t plugin = 0; plugin < plugins; plugin++) {
        fprintf(manifest, "\n<urn:deepfilterkit:%s>\n    a lv2:Plugin ;\n    lv2:binary <dfkit.so> ;\n    rdfs:seeAlso <dfkit.ttl> .\n", label(plugin));
        fprintf(ttl, "\n<urn:deepfilterkit:%s>\n    a lv2:Plugin, lv2:FilterPlugin ;\n    doap:name \"%s\" ;\n"
                     "    lv2:optionalFeature lv2:hardRTCapable ;\n    lv2:port [\n", label(plugin), name(plugin));
        int32_t ports = port_count(plugin);
        for (int32_t index = 0; index < ports; index++) {
            const char *port_name = NULL, *symbol = NULL;
            float minimum = 0, maximum = 0, fallback = 0;
            int32_t kind = port(plugin, index, &port_name, &symbol, &minimum, &maximum, &fallback);
            const char *type = kind == 0 ? "lv2:AudioPort, lv2:InputPort" : kind == 1 ? "lv2:AudioPort, lv2:OutputPort"
                             : kind == 4 ? "lv2:ControlPort, lv2:OutputPort" : "lv2:ControlPort, lv2:InputPort";
            fprintf(ttl, "        a %s ;\n        lv2:index %d ; lv2:symbol \"%s\" ; lv2:name \"%s\"", type, index, symbol, port_name);
            if (kind == 2) {
                fprintf(ttl, " ;\n        lv2:default ");
                decimal(ttl, fallback);
                fprintf(ttl, " ; lv2:minimum ");
                decimal(ttl, minimum);
                fprintf(ttl, " ; lv2:maximum ");
                decimal(ttl, maximum);
            } else if (kind == 3) {
                fprintf(ttl, " ;\n        lv2:portProperty lv2:toggled ; lv2:designation lv2:enabled ;\n"
                             "        lv2:default 1 ; lv2:minimum 0 ; lv2:maximum 1");
            } else if (kind == 4) {
                fprintf(ttl, " ;\n        lv2:portProperty lv2:reportsLatency, lv2:integer ; lv2:designation lv2:latency ;\n"
                             "        lv2:minimum 0 ; lv2:maximum %d", (int)maximum);
            }
            fprintf(ttl, "\n    ]%s\n", index + 1 < ports ? " , [" : " .");
        }
    }
    fclose(manifest);
    fclose(ttl);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 4 && strcmp(argv[1], "ttl") == 0) return write_ttl(argv[2], argv[3]);
    if (argc < 7) die("usage: plugin-host ladspa|lv2 SO LABEL|URI RATE IN OUT [options]", NULL);
    struct plugin p = {0};
    p.lv2 = strcmp(argv[1], "lv2") == 0;
    const char *so = argv[2], *name = argv[3], *in_path = argv[5], *out_path = argv[6];
    double rate = atof(argv[4]);
    unsigned long blocks[MAX_BLOCKS] = {256};
    int block_count = 1, count_realtime = 0, zero_runs = 0, reactivate = 0, instances = 1, warmup = 64;
    long unconnected = 0, toggle_at = -1, enable_port = -1;
    const char *bundle = NULL, *ports = NULL;
    float controls[MAX_PORTS];
    int control_given[MAX_PORTS] = {0};
    for (int i = 7; i < argc; i++) {
        const char *option = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(option, "--blocks") == 0 && value) {
            block_count = 0;
            for (char *s = strdup(value), *token = strtok(s, ","); token && block_count < MAX_BLOCKS; token = strtok(NULL, ","))
                blocks[block_count++] = strtoul(token, NULL, 10);
            i++;
        } else if (strcmp(option, "--control") == 0 && value) {
            unsigned long index = strtoul(value, NULL, 10);
            const char *equals = strchr(value, '=');
            if (!equals || index >= MAX_PORTS) die("bad --control", value);
            controls[index] = strtof(equals + 1, NULL);
            control_given[index] = 1;
            i++;
        } else if (strcmp(option, "--count-realtime") == 0) count_realtime = 1;
        else if (strcmp(option, "--warmup") == 0 && value) { warmup = atoi(value); i++; }
        else if (strcmp(option, "--zero-runs") == 0) zero_runs = 1;
        else if (strcmp(option, "--unconnected") == 0 && value) { unconnected = atol(value); i++; }
        else if (strcmp(option, "--reactivate") == 0) reactivate = 1;
        else if (strcmp(option, "--instances") == 0 && value) { instances = atoi(value); i++; }
        else if (strcmp(option, "--toggle-at") == 0 && value) { toggle_at = atol(value); i++; }
        else if (strcmp(option, "--enable-port") == 0 && value) { enable_port = atol(value); i++; }
        else if (strcmp(option, "--bundle") == 0 && value) { bundle = value; i++; }
        else if (strcmp(option, "--ports") == 0 && value) { ports = value; i++; }
        else die("unknown option", option);
    }
    if (instances < 1) die("--instances must be at least 1", NULL);

    void *library = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!library) die("dlopen failed", dlerror());
    if (p.lv2) {
        LV2_Descriptor_Function descriptors = (LV2_Descriptor_Function)dlsym(library, "lv2_descriptor");
        if (!descriptors) die("no lv2_descriptor in", so);
        for (uint32_t i = 0; (p.lv2_descriptor = descriptors(i)) != NULL; i++)
            if (strcmp(p.lv2_descriptor->URI, name) == 0) break;
        if (!p.lv2_descriptor) die("no such LV2 plugin", name);
        if (!ports || !bundle) die("lv2 needs --bundle and --ports", NULL);
        p.port_count = strlen(ports);
        for (unsigned long i = 0; i < p.port_count; i++) {
            p.kinds[i] = ports[i] == 'i' ? AUDIO_IN : ports[i] == 'o' ? AUDIO_OUT : ports[i] == 'c' ? CONTROL_IN : CONTROL_OUT;
            p.defaults[i] = 0;
        }
    } else {
        LADSPA_Descriptor_Function descriptors = (LADSPA_Descriptor_Function)dlsym(library, "ladspa_descriptor");
        if (!descriptors) die("no ladspa_descriptor in", so);
        for (unsigned long i = 0; (p.ladspa = descriptors(i)) != NULL; i++)
            if (strcmp(p.ladspa->Label, name) == 0) break;
        if (!p.ladspa) die("no such LADSPA plugin", name);
        p.port_count = p.ladspa->PortCount;
        if (p.port_count > MAX_PORTS) die("too many ports", name);
        for (unsigned long i = 0; i < p.port_count; i++) {
            LADSPA_PortDescriptor d = p.ladspa->PortDescriptors[i];
            p.kinds[i] = LADSPA_IS_PORT_AUDIO(d) ? (LADSPA_IS_PORT_INPUT(d) ? AUDIO_IN : AUDIO_OUT)
                                                 : (LADSPA_IS_PORT_INPUT(d) ? CONTROL_IN : CONTROL_OUT);
            LADSPA_PortRangeHintDescriptor hint = p.ladspa->PortRangeHints[i].HintDescriptor;
            p.defaults[i] = LADSPA_IS_HINT_DEFAULT_1(hint) ? 1 : LADSPA_IS_HINT_DEFAULT_MAXIMUM(hint) ? p.ladspa->PortRangeHints[i].UpperBound : 0;
        }
    }
    int inputs = 0, outputs = 0;
    for (unsigned long i = 0; i < p.port_count; i++) {
        if (p.kinds[i] == AUDIO_IN) inputs++;
        if (p.kinds[i] == AUDIO_OUT) outputs++;
    }
    if (inputs < 1 || outputs != inputs) die("the plugin must have as many audio outputs as inputs", name);

    size_t sample_count;
    float *interleaved = read_floats(in_path, &sample_count);
    size_t frames = sample_count / (size_t)inputs;
    unsigned long largest = 1;
    for (int b = 0; b < block_count; b++) if (blocks[b] > largest) largest = blocks[b];

    struct instance *all = calloc((size_t)instances, sizeof *all);
    float **in_buffers = calloc((size_t)instances * (size_t)inputs, sizeof(float *));
    float **out_buffers = calloc((size_t)instances * (size_t)outputs, sizeof(float *));
    for (int k = 0; k < instances; k++) {
        all[k].handle = instantiate(&p, rate, bundle);
        if (!all[k].handle) {
            printf("instantiate null\n");
            return 3;
        }
        for (unsigned long i = 0; i < p.port_count; i++) all[k].controls[i] = control_given[i] ? controls[i] : p.defaults[i];
        for (int c = 0; c < inputs; c++) in_buffers[k * inputs + c] = calloc(largest, sizeof(float));
        for (int c = 0; c < outputs; c++) out_buffers[k * outputs + c] = calloc(largest, sizeof(float));
    }
    for (int k = 0; k < instances; k++) {
        int in = 0, out = 0;
        for (unsigned long i = 0; i < p.port_count; i++) {
            if (p.kinds[i] == AUDIO_IN) connect(&p, all[k].handle, i, unconnected > 0 ? NULL : in_buffers[k * inputs + in++]);
            else if (p.kinds[i] == AUDIO_OUT) connect(&p, all[k].handle, i, unconnected > 0 ? NULL : out_buffers[k * outputs + out++]);
            else connect(&p, all[k].handle, i, &all[k].controls[i]);
        }
        activate(&p, all[k].handle);
    }

    float *result = calloc(frames * (size_t)outputs + 1, sizeof(float));
    size_t calls = 0, timed = 0;
    size_t capacity = frames + 16;
    double *times = calloc(capacity, sizeof(double));
    struct realtime_calls counted = {0, 0, 0, 0};
    uint64_t allocations = 0;
    int passes = reactivate ? 2 : 1;
    for (int pass = 0; pass < passes; pass++) {
        if (pass == 1) {
            for (int k = 0; k < instances; k++) {
                deactivate(&p, all[k].handle);
                activate(&p, all[k].handle);
            }
        }
        size_t position = 0;
        int block = 0;
        long block_index = 0;
        while (position < frames) {
            unsigned long count = blocks[block];
            block = (block + 1) % block_count;
            if (count > frames - position) count = frames - position;
            if (unconnected > 0 && block_index == unconnected) {
                for (int k = 0; k < instances; k++) {
                    int in = 0, out = 0;
                    for (unsigned long i = 0; i < p.port_count; i++) {
                        if (p.kinds[i] == AUDIO_IN) connect(&p, all[k].handle, i, in_buffers[k * inputs + in++]);
                        else if (p.kinds[i] == AUDIO_OUT) connect(&p, all[k].handle, i, out_buffers[k * outputs + out++]);
                    }
                }
            }
            if (toggle_at >= 0 && enable_port >= 0 && position >= (size_t)toggle_at)
                for (int k = 0; k < instances; k++) all[k].controls[enable_port] = 0;
            for (int k = 0; k < instances; k++) {
                for (int c = 0; c < inputs; c++)
                    for (unsigned long f = 0; f < count; f++) in_buffers[k * inputs + c][f] = interleaved[(position + f) * inputs + c];
                int counting = count_realtime && k == 0 && calls >= (size_t)warmup;
                double start = now_us();
                if (counting) {
                    allocation_counter_start();
                    realtime_call_counter_start();
                }
                if (zero_runs) run(&p, all[k].handle, 0);
                run(&p, all[k].handle, count);
                if (counting) {
                    struct realtime_calls these = realtime_call_counter_stop();
                    allocations += allocation_counter_stop();
                    counted.locks += these.locks;
                    counted.waits += these.waits;
                    counted.sleeps += these.sleeps;
                    counted.yields += these.yields;
                }
                if (k == 0 && timed < capacity) times[timed++] = now_us() - start;
            }
            if (pass == passes - 1 && (unconnected == 0 || block_index >= unconnected))
                for (int c = 0; c < outputs; c++)
                    for (unsigned long f = 0; f < count; f++) result[(position + f) * outputs + c] = out_buffers[c][f];
            position += count;
            block_index++;
            calls++;
        }
    }
    for (int k = 1; k < instances; k++)
        if (memcmp(out_buffers[k * outputs], out_buffers[0], largest * sizeof(float)) != 0) printf("instances differ %d\n", k);

    float latency = -1;
    for (unsigned long i = 0; i < p.port_count; i++) if (p.kinds[i] == CONTROL_OUT) latency = all[0].controls[i];
    printf("latency %.0f\n", latency);
    printf("frames %zu\n", frames);
    printf("rss_kb %ld\n", resident_kilobytes());
    if (count_realtime) {
        printf("allocations %llu\nlocks %llu\nwaits %llu\nsleeps %llu\nyields %llu\n", (unsigned long long)allocations,
               (unsigned long long)counted.locks, (unsigned long long)counted.waits, (unsigned long long)counted.sleeps,
               (unsigned long long)counted.yields);
    }
    double total = 0;
    for (size_t i = 0; i < timed; i++) total += times[i];
    qsort(times, timed, sizeof(double), compare_doubles);
    if (timed > 0) {
        printf("run_us_p50 %.3f\nrun_us_p99 %.3f\nrun_us_max %.3f\nrun_us_total %.0f\n", times[timed / 2], times[(size_t)(timed * 0.99)],
               times[timed - 1], total);
    }
    int finite = 1;
    for (size_t i = 0; i < frames * (size_t)outputs; i++) if (!isfinite(result[i])) finite = 0;
    printf("finite %d\n", finite);
    if (strcmp(out_path, "-") != 0) {
        FILE *out = fopen(out_path, "wb");
        if (!out || fwrite(result, sizeof(float), frames * (size_t)outputs, out) != frames * (size_t)outputs) die("cannot write", out_path);
        fclose(out);
    }
    for (int k = 0; k < instances; k++) {
        deactivate(&p, all[k].handle);
        cleanup(&p, all[k].handle);
    }
    return 0;
}
