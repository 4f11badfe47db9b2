import DSP
import Foundation
import Testing
import TestSupport

/// The plugins in a host of our own (Tests/PluginHost, a C program that loads the shared object
/// as any LADSPA or LV2 host does) for what no packaged tool does: the issue's host block sizes
/// one by one, hostile call sequences, many instances, and counting what run() does.
///
/// Held to `dfkit enhance --streaming --float` of the same clip: the plugin's output shifted by
/// the latency it reports must be those samples within 1e-6 (the issue's bound for float output;
/// the plugin feeds the same enhancer the same frames, so the difference is 0).
@Suite struct PluginHostTests {
    static let tolerance = Float(Tolerance.reordered.absolute)
    static let blockSizes = [1, 64, 200, 256, 480, 512, 1024, 2048]

    /// Runs plugin-host on `plugin`'s clip; returns its key/value report and output.
    static func host(_ plugin: PluginCase, lv2: Bool = false, rate: Int? = nil, input: String? = nil, options: [String] = [],
                     environment: [String: String?] = [:]) throws -> (values: [String: String], output: [[Float]], result: ChildProcess.Output) {
        let fixtures = try HostFixtures.get()
        let output = fixtures.scratch("out.f32")
        defer { try? FileManager.default.removeItem(atPath: output) }
        var arguments = [lv2 ? "lv2" : "ladspa", fixtures.plugin.path, lv2 ? plugin.uri : plugin.label, "\(rate ?? plugin.rate)",
                         input ?? fixtures.clip(plugin.clip).raw, output]
        if lv2 {
            arguments += ["--bundle", fixtures.lv2Directory.appendingPathComponent("dfkit.lv2").path + "/", "--ports", plugin.lv2Ports]
            arguments += plugin.controls.flatMap { ["--control", "\($0.0)=\($0.1)"] }
        }
        let result = try ChildProcess.run(try ChildProcess.builtProduct("plugin-host"), arguments + options,
                                        environment: fixtures.environment.merging(plugin.environment) { $1 }.merging(environment) { $1 })
        let samples = FileManager.default.fileExists(atPath: output) ? try HostFixtures.readRaw(output, channels: plugin.channels) : []
        return (result.values, samples, result)
    }

    /// Checks the report and the output against the reference; returns the largest difference.
    @discardableResult
    static func expectReference(_ plugin: PluginCase, _ run: (values: [String: String], output: [[Float]], result: ChildProcess.Output),
                                reference: [[Float]]? = nil, _ context: String) throws -> Float {
        try #require(run.result.succeeded, "\(context): plugin-host failed (\(run.result.status)): \(run.result.standardError)")
        let latency = try plugin.expectedLatency()
        #expect(run.values["latency"] == "\(latency)", "\(context): latency port")
        #expect(run.values["finite"] == "1", "\(context): non-finite output")
        let fixtures = try HostFixtures.get()
        let difference = HostFixtures.largestDifference(run.output, shiftedBy: latency,
                                                        from: try reference ?? fixtures.reference(plugin.clip, model: plugin.model))
        #expect(difference <= tolerance, "\(context): largest difference \(difference)")
        return difference
    }

    @Test(arguments: PluginCase.all, blockSizes)
    func ladspaAtEveryBlockSize(plugin: PluginCase, block: Int) throws {
        try Self.expectReference(plugin, Self.host(plugin, options: ["--blocks", "\(block)"]), "\(plugin.label) blocks of \(block)")
    }

    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono, .dtlnMono, .environmentNSNet2], blockSizes)
    func lv2AtEveryBlockSize(plugin: PluginCase, block: Int) throws {
        try Self.expectReference(plugin, Self.host(plugin, lv2: true, options: ["--blocks", "\(block)"]), "LV2 \(plugin.label) blocks of \(block)")
    }

    /// run() over every block size in turn, counted after 64 warm-up calls: no allocation, lock,
    /// wait, sleep or yield (plugin-host links AllocationCounter and RealtimeCallCounter).
    @Test(arguments: PluginCase.all, [false, true])
    func runAllocatesLocksWaitsAndSleepsNever(plugin: PluginCase, lv2: Bool) throws {
        let run = try Self.host(plugin, lv2: lv2, options: ["--blocks", "1,64,200,256,480,512,1024,2048", "--count-realtime", "--zero-runs"])
        try Self.expectReference(plugin, run, "\(plugin.label) counted")
        for key in ["allocations", "locks", "waits", "sleeps", "yields"] {
            #expect(run.values[key] == "0", "\(plugin.label)\(lv2 ? " (LV2)" : ""): \(run.values[key] ?? "nothing") \(key) in run()")
        }
    }

    /// The counters in plugin-host see a run() that does what the plugins must not.
    @Test func theHostsCountersCanFail() throws {
        let probe = try HostFixtures.get().scratch("probe.so")
        let source = try HostFixtures.get().scratch("probe.c")
        try """
            #include <ladspa.h>
            #include <pthread.h>
            #include <sched.h>
            #include <stdlib.h>
            #include <unistd.h>
            static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
            static float *ports[2];
            static LADSPA_Handle instantiate(const LADSPA_Descriptor *d, unsigned long r) { return malloc(1); }
            static void connect(LADSPA_Handle h, unsigned long p, LADSPA_Data *d) { ports[p] = d; }
            static void run(LADSPA_Handle h, unsigned long n) {
                free(malloc(16)); pthread_mutex_lock(&mutex); pthread_mutex_unlock(&mutex); usleep(1); sched_yield();
                for (unsigned long i = 0; i < n; i++) ports[1][i] = ports[0][i];
            }
            static void cleanup(LADSPA_Handle h) { free(h); }
            static LADSPA_PortDescriptor kinds[] = {LADSPA_PORT_INPUT | LADSPA_PORT_AUDIO, LADSPA_PORT_OUTPUT | LADSPA_PORT_AUDIO};
            static const char *names[] = {"in", "out"};
            static LADSPA_PortRangeHint hints[2];
            static LADSPA_Descriptor descriptor = {1, "probe", 0, "probe", "", "", 2, kinds, names, hints, 0, instantiate, connect, 0, run, 0, 0, 0, cleanup};
            const LADSPA_Descriptor *ladspa_descriptor(unsigned long i) { return i == 0 ? &descriptor : 0; }
            """.write(toFile: source, atomically: true, encoding: .utf8)
        let compiler = try Subprocess.tool("clang", package: "the Swift toolchain's clang")
        let compiled = try ChildProcess.run(compiler, ["-shared", "-fPIC", "-o", probe, source])
        try #require(compiled.succeeded, "\(compiled.standardError)")
        let clip = try HostFixtures.get().clip("speech48").raw
        let result = try ChildProcess.run(try ChildProcess.builtProduct("plugin-host"), ["ladspa", probe, "probe", "48000", clip, "-", "--count-realtime", "--warmup", "0"])
        try #require(result.succeeded, "\(result.standardError)")
        let calls = Int(result.values["frames"] ?? "") .map { ($0 + 255) / 256 } ?? 0
        for key in ["allocations", "locks", "sleeps", "yields"] {
            #expect(result.values[key] == "\(calls)", "\(key): \(result.values[key] ?? "nothing") for \(calls) calls")
        }
    }

    // MARK: Hostile hosts

    @Test func runOfZeroFramesBetweenBlocksChangesNothing() throws {
        try Self.expectReference(.dfn3Mono, Self.host(.dfn3Mono, options: ["--blocks", "200", "--zero-runs"]), "run(0) before every block")
    }

    /// Audio ports left unconnected (NULL) for the first 40 blocks: inputs read as silence and
    /// outputs are dropped, so the rest equals the reference of the clip with those samples zeroed.
    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono])
    func unconnectedPortsReadAsSilence(plugin: PluginCase) throws {
        let fixtures = try HostFixtures.get()
        let silenced = 40 * 100
        var channels = fixtures.clip(plugin.clip).channels
        for index in channels.indices { for n in 0..<silenced { channels[index][n] = 0 } }
        let input = fixtures.scratch("silenced.f32"), wav = fixtures.scratch("silenced.wav")
        try HostFixtures.writeRaw(channels, to: input)
        let run = try Self.host(plugin, input: input, options: ["--blocks", "100", "--unconnected", "40"])
        try #require(run.result.succeeded, "\(run.result.standardError)")
        try AudioFileWriter.write(AudioSignal(sampleRate: plugin.rate, channels: channels), to: wav, encoding: .float32)
        let reference = try Self.referenceFor(wav, model: plugin.model)
        let latency = try plugin.expectedLatency()
        // Compare from the first output sample the host kept (block 40 on).
        let kept = run.output.map { Array($0[silenced...]) }
        let expected = reference.map { Array($0[(silenced - latency)...]) }
        let difference = HostFixtures.largestDifference(kept, shiftedBy: 0, from: expected)
        #expect(difference <= Self.tolerance, "\(plugin.label): \(difference)")
        #expect(run.values["finite"] == "1")
    }

    /// activate, the whole clip, deactivate, activate, the whole clip again: the second pass starts
    /// from silence, as the first did.
    @Test(arguments: [PluginCase.dfn3Mono, .gtcrnMono])
    func activateDeactivateActivateStartsAfresh(plugin: PluginCase) throws {
        try Self.expectReference(plugin, Self.host(plugin, options: ["--blocks", "512", "--reactivate"]), "\(plugin.label) reactivated")
    }

    @Test(arguments: [(PluginCase.dfn3Mono, 11_025), (.dfn3Mono, 384_000), (.gtcrnMono, 11_025), (.gtcrnMono, 384_000), (.dfn3Stereo, 384_000)])
    func refusesRatesItCannotServe(plugin: PluginCase, rate: Int) throws {
        let run = try Self.host(plugin, rate: rate)
        #expect(run.result.exited && run.result.status == 3, "instantiate at \(rate) Hz should return NULL: \(run.result.standardOutput)")
        #expect(run.result.standardError.contains("\(plugin.label): cannot instantiate at \(rate) Hz"), "\(run.result.standardError)")
        #expect(run.result.standardError.contains("multiple of 100 Hz"), "\(run.result.standardError)")
    }

    /// A copy of the plugin outside the repository with DFKIT_MODEL_DIR pointing nowhere: NULL,
    /// and stderr says where it looked and what to do.
    @Test func aMissingModelRefusesInstantiation() throws {
        let fixtures = try HostFixtures.get()
        let folder = fixtures.scratch("lonely")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let copy = folder + "/libdfkit-ladspa.so"
        try FileManager.default.copyItem(atPath: fixtures.plugin.path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try ChildProcess.run(try ChildProcess.builtProduct("plugin-host"),
                                        ["ladspa", copy, "dfkit_dfn3_mono", "48000", fixtures.clip("speech48").raw, "-"],
                                        environment: ["DFKIT_MODEL_DIR": folder + "/nothing-here"])
        #expect(result.exited && result.status == 3)
        #expect(result.standardError.contains("model dfn3 not found in \(folder)/nothing-here (DFKIT_MODEL_DIR); set DFKIT_MODEL_DIR"),
                "\(result.standardError)")
    }

    /// The environment-chosen plugin without its variable: NULL, and stderr says what to set.
    @Test func theEnvironmentPluginNamesItsVariable() throws {
        let run = try Self.host(.environmentNSNet2, environment: ["DFKIT_PLUGIN_MODEL": nil])
        #expect(run.result.exited && run.result.status == 3)
        #expect(run.result.standardError.contains("dfkit_model_mono: cannot instantiate at 16000 Hz: set DFKIT_PLUGIN_MODEL"), "\(run.result.standardError)")
    }

    /// The LV2 bundle describes exactly the plugins the shared object makes of the repository's
    /// models (plugin-host ttl writes it from them), port for port.
    @Test func theLV2BundleIsTheOneTheLibraryDescribes() throws {
        let fixtures = try HostFixtures.get()
        let folder = fixtures.scratch("ttl")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try ChildProcess.run(try ChildProcess.builtProduct("plugin-host"), ["ttl", fixtures.plugin.path, folder],
                                          environment: ["DFKIT_MODEL_DIR": nil])
        try #require(result.succeeded, "\(result.standardError)")
        for file in ["manifest.ttl", "dfkit.ttl"] {
            let written = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            let committed = try String(contentsOf: RepositoryFiles.root.appendingPathComponent("Plugins/dfkit.lv2/\(file)"), encoding: .utf8)
            #expect(written == committed, "Plugins/dfkit.lv2/\(file) differs from what plugin-host ttl writes: regenerate it")
        }
    }

    /// 100 instances in one process, each run over the clip: all alike, none crashes.
    @Test func aHundredInstancesAtOnce() throws {
        let run = try Self.host(.dfn3Mono, options: ["--blocks", "480", "--instances", "100"])
        try Self.expectReference(.dfn3Mono, run, "instance 0 of 100")
        #expect(!run.result.standardOutput.contains("instances differ"), "\(run.result.standardOutput)")
    }

    /// NaN and ±Inf samples from the host: finite output, that of the clip with them zeroed.
    @Test(arguments: [PluginCase.dfn3Mono, .dfn3Stereo, .gtcrnMono])
    func nonFiniteInputGivesFiniteOutput(plugin: PluginCase) throws {
        let fixtures = try HostFixtures.get()
        var poisoned = fixtures.clip(plugin.clip).channels
        var cleaned = poisoned
        for index in poisoned.indices {
            for n in stride(from: 500 + index, to: poisoned[index].count, by: 2_311) {
                poisoned[index][n] = [Float.nan, .infinity, -.infinity][n % 3]
                cleaned[index][n] = 0
            }
            for n in 10_000..<10_300 { poisoned[index][n] = .nan; cleaned[index][n] = 0 }
        }
        let input = fixtures.scratch("poisoned.f32"), wav = fixtures.scratch("cleaned.wav")
        try HostFixtures.writeRaw(poisoned, to: input)
        try AudioFileWriter.write(AudioSignal(sampleRate: plugin.rate, channels: cleaned), to: wav, encoding: .float32)
        let run = try Self.host(plugin, input: input, options: ["--blocks", "256"])
        try Self.expectReference(plugin, run, reference: try Self.referenceFor(wav, model: plugin.model), "\(plugin.label) with NaN/Inf")
    }

    /// The enable port off from 1 s on: after the 10 ms crossfade, the input itself, delayed by
    /// the same latency (bit for bit).
    @Test(arguments: [PluginCase.dfn3Mono, .gtcrnMono])
    func switchedOffItPassesTheInputAtTheSameLatency(plugin: PluginCase) throws {
        let fixtures = try HostFixtures.get()
        let off = plugin.rate
        let run = try Self.host(plugin, options: ["--blocks", "100", "--toggle-at", "\(off)", "--enable-port", "\(plugin.enablePort)"])
        try #require(run.result.succeeded, "\(run.result.standardError)")
        let latency = try plugin.expectedLatency()
        let input = fixtures.clip(plugin.clip).channels[0]
        let fade = plugin.rate / 100
        let mismatches = ((off + fade)..<input.count).filter { run.output[0][$0] != input[$0 - latency] }
        #expect(mismatches.isEmpty, "\(mismatches.count) samples differ from the delayed input, first at \(mismatches.first ?? -1)")
    }

    /// `dfkit enhance --streaming --float` of a file written for one test.
    static func referenceFor(_ wav: String, model: String) throws -> [[Float]] {
        let output = wav.replacingOccurrences(of: ".wav", with: "-reference.wav")
        let result = try ChildProcess.run(try ChildProcess.builtProduct("dfkit"), ["enhance", wav, "-o", output, "--streaming", "--float", "--model", model],
                                        environment: try HostFixtures.get().environment)
        try #require(result.succeeded, "dfkit enhance: \(result.standardError)")
        return try AudioFileReader.read(path: output).channels
    }
}
