// plugin-soak: one LADSPA plugin instance over a long recording at random block sizes, for the
// soak benchmark (Benchmarks/soak/plugin-soak-run). Unlike Tests/PluginHost it streams: the
// input is read and the output compared with the reference block by block, so that hours of
// audio need no memory of their own and the resident set measured is the plugin's.
//
//   plugin-soak SO LABEL IN.wav REFERENCE.wav SEED [MAX_BLOCK]
//
// IN is mono at the rate the plugin is instantiated at; REFERENCE is `dfkit enhance --streaming
// --float` of IN: the output shifted by the latency port must equal it. Block sizes are drawn
// uniformly from 1…MAX_BLOCK (default 8192) by a seeded xorshift. Every minute of wall time a
// line "rss SECONDS KB" goes to stderr; at the end "key value" lines on stdout: frames, calls,
// latency, run_us_p50/p99/p999/max, max_abs_difference, compared.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <ladspa.h>
#include <math.h>
#include <sndfile.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_PORTS 16
#define BINS 100000  // 1 µs bins up to 100 ms; the exact maximum is kept apart

static uint64_t state;
static uint64_t next_random(void) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static long rss_kb(void) {
    FILE *status = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (status && fgets(line, sizeof line, status))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
    if (status) fclose(status);
    return kb;
}

static void die(const char *what, const char *detail) {
    fprintf(stderr, "plugin-soak: %s: %s\n", what, detail);
    exit(2);
}

static unsigned long percentile(const unsigned long *bins, unsigned long count, double fraction, unsigned long maximum) {
    unsigned long wanted = (unsigned long)ceil(fraction * (double)count), seen = 0;
    for (unsigned long bin = 0; bin < BINS; bin++) {
        seen += bins[bin];
        if (seen >= wanted && seen > 0) return bin + 1 < maximum ? bin + 1 : maximum;
    }
    return maximum;
}

int main(int argc, char **argv) {
    if (argc < 6) die("usage", "plugin-soak SO LABEL IN.wav REFERENCE.wav SEED [MAX_BLOCK]");
    state = strtoull(argv[5], NULL, 10) * 0x9E3779B97F4A7C15ull + 1;
    unsigned long max_block = argc > 6 ? strtoul(argv[6], NULL, 10) : 8192;

    SF_INFO in_info = {0}, ref_info = {0};
    SNDFILE *in = sf_open(argv[3], SFM_READ, &in_info);
    if (!in || in_info.channels != 1) die(argv[3], "cannot open as a mono audio file");
    SNDFILE *ref = sf_open(argv[4], SFM_READ, &ref_info);
    if (!ref || ref_info.channels != 1 || ref_info.frames != in_info.frames) die(argv[4], "not a mono file as long as IN");

    void *library = dlopen(argv[1], RTLD_NOW);
    if (!library) die(argv[1], dlerror());
    LADSPA_Descriptor_Function descriptors = (LADSPA_Descriptor_Function)dlsym(library, "ladspa_descriptor");
    if (!descriptors) die(argv[1], "no ladspa_descriptor");
    const LADSPA_Descriptor *d = NULL;
    for (unsigned long i = 0; (d = descriptors(i)) && strcmp(d->Label, argv[2]) != 0; i++) {}
    if (!d) die(argv[2], "no such label");
    if (d->PortCount > MAX_PORTS) die(argv[2], "too many ports");

    LADSPA_Handle handle = d->instantiate(d, (unsigned long)in_info.samplerate);
    if (!handle) die(argv[2], "instantiate returned NULL");
    float *input = calloc(max_block, sizeof(float)), *output = calloc(max_block, sizeof(float)), *expected = calloc(max_block, sizeof(float));
    float controls[MAX_PORTS] = {0}, latency = -1;
    int latency_port = -1;
    for (unsigned long port = 0; port < d->PortCount; port++) {
        LADSPA_PortDescriptor kind = d->PortDescriptors[port];
        if (LADSPA_IS_PORT_AUDIO(kind)) d->connect_port(handle, port, LADSPA_IS_PORT_INPUT(kind) ? input : output);
        else if (LADSPA_IS_PORT_OUTPUT(kind)) {
            d->connect_port(handle, port, &controls[port]);
            if (strcmp(d->PortNames[port], "latency") == 0) latency_port = (int)port;
        } else {
            // Each control at its default: the descriptor's hint (attenuation limit 100 = off,
            // post-filter 0 = off, enable on).
            LADSPA_PortRangeHint hint = d->PortRangeHints[port];
            int defaults = hint.HintDescriptor & LADSPA_HINT_DEFAULT_MASK;
            controls[port] = defaults == LADSPA_HINT_DEFAULT_MAXIMUM ? hint.UpperBound
                           : defaults == LADSPA_HINT_DEFAULT_1 ? 1 : defaults == LADSPA_HINT_DEFAULT_100 ? 100 : hint.LowerBound;
            d->connect_port(handle, port, &controls[port]);
        }
    }
    if (latency_port < 0) die(argv[2], "no latency port");
    if (d->activate) d->activate(handle);

    static unsigned long bins[BINS];
    unsigned long calls = 0, maximum_ns = 0;
    long long frames_in = 0, frames_out = 0, compared = 0, total = in_info.frames;
    double max_difference = 0, began = now_seconds(), next_sample = began;
    while (frames_out < total + (long long)latency || latency < 0) {
        unsigned long block = 1 + next_random() % max_block;
        long long got = sf_readf_float(in, input, (sf_count_t)block);
        for (long long i = got; i < (long long)block; i++) input[i] = 0;  // the flush after the end
        frames_in += got;
        struct timespec start, end;
        clock_gettime(CLOCK_MONOTONIC, &start);
        d->run(handle, block);
        clock_gettime(CLOCK_MONOTONIC, &end);
        unsigned long ns = (unsigned long)((end.tv_sec - start.tv_sec) * 1000000000L + (end.tv_nsec - start.tv_nsec));
        bins[ns / 1000 < BINS ? ns / 1000 : BINS - 1]++;
        if (ns > maximum_ns) maximum_ns = ns;
        calls++;
        latency = controls[latency_port];
        // Output sample n is input sample n − latency enhanced: compare what overlaps the input.
        long long first = frames_out, last = frames_out + (long long)block;
        long long from = first > (long long)latency ? first : (long long)latency;
        long long to = last < total + (long long)latency ? last : total + (long long)latency;
        if (to > from) {
            if (sf_readf_float(ref, expected, to - from) != to - from) die(argv[4], "short read");
            for (long long n = from; n < to; n++) {
                double difference = fabs((double)output[n - first] - (double)expected[n - from]);
                if (!(difference <= max_difference)) max_difference = isnan(difference) ? INFINITY : difference;
            }
            compared += to - from;
        }
        frames_out = last;
        double now = now_seconds();
        if (now >= next_sample) {
            fprintf(stderr, "rss %.0f %ld\n", now - began, rss_kb());
            next_sample += 60;
        }
    }
    if (d->deactivate) d->deactivate(handle);
    fprintf(stderr, "rss %.0f %ld\n", now_seconds() - began, rss_kb());
    d->cleanup(handle);
    unsigned long max_us = (maximum_ns + 999) / 1000;
    printf("frames %lld\ncalls %lu\nlatency %.0f\ncompared %lld\nmax_abs_difference %.3g\n", frames_in, calls, latency, compared, max_difference);
    printf("run_us_p50 %lu\nrun_us_p99 %lu\nrun_us_p999 %lu\nrun_us_max %.1f\nwall_s %.1f\n", percentile(bins, calls, 0.5, max_us),
           percentile(bins, calls, 0.99, max_us), percentile(bins, calls, 0.999, max_us), maximum_ns / 1000.0, now_seconds() - began);
    sf_close(in);
    sf_close(ref);
    return compared == total ? 0 : 1;
}
