// swift-tools-version:6.0
import PackageDescription

// Our own code is compiled for AVX2 + FMA (x86-64-v3): Swift's baseline SSE2 turns
// SIMD8 fused multiply-adds into scalar libm calls. Exclusivity checks cost ~20x in the
// kernels' loops over class-held buffers; the kernels guard their own bounds.
#if arch(x86_64)
let vectorISA: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-march=x86-64-v3"])]
// AVX512Kernels holds the few kernels that are bound by the core's vector width; they run only
// where `VectorWidth.available` finds AVX-512, so nothing else may live in that module.
let wideVectorISA: [SwiftSetting] = [.unsafeFlags(["-Xcc", "-march=x86-64-v4"])]
#else
let vectorISA: [SwiftSetting] = []
let wideVectorISA: [SwiftSetting] = []
#endif
let uncheckedLoops: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"]),
    .unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
]
let kernelSettings: [SwiftSetting] = vectorISA + uncheckedLoops
// Debian's default OpenBLAS (pthread) takes a pthread mutex around its buffer pool in every
// sgemm, which a real-time callback must not; its serial build gives wrong results when two
// threads call it at once. The OpenMP build guards each buffer with a spin lock instead (an
// uncontended xchg; sched_yield only while another thread holds that buffer) and is correct from
// any number of threads. Whatever links the real-time hosts (the plugins, dfkit for its JACK
// client, the tests proving them lock-free) finds libopenblas.so.0 there first; kernels and
// results are the same.
#if arch(x86_64)
let realTimeOpenBLAS: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "/usr/lib/x86_64-linux-gnu/openblas-openmp"])]
#elseif arch(arm64)
let realTimeOpenBLAS: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-rpath", "-Xlinker", "/usr/lib/aarch64-linux-gnu/openblas-openmp"])]
#else
let realTimeOpenBLAS: [LinkerSetting] = []
#endif
// A shared object for C hosts carries the Swift runtime and Foundation inside it (hidden by the
// runtime's own --exclude-libs ALL). -static-stdlib links Foundation's archives but not the ones
// they need in turn, so those follow (their order matters to the linker).
let staticSwiftRuntime = ["-use-ld=lld", "-Xlinker", "-Bsymbolic", "-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCShims", "-l_FoundationCollections",
                          "-ldispatch", "-lBlocksRuntime", "-lswiftCore", "-lstdc++"]

let package = Package(
    name: "DeepFilterKit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "dfkit", targets: ["dfkit"]),
        .executable(name: "dfbench", targets: ["dfbench"]),
        .library(name: "DeepFilterKit", targets: ["ModelCatalog", "Enhancement", "DeepFilter", "ModelCard", "QualityScore", "VoiceActivity", "Realtime",
                                                  "Live", "Inference", "ONNX", "DSP"]),
        // libdfkit-ladspa.so: the LADSPA plugins, and the LV2 ones when installed as dfkit.lv2/dfkit.so.
        .library(name: "dfkit-ladspa", type: .dynamic, targets: ["CLivePlugins", "LivePlugins"]),
    ],
    targets: [
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSoxr", pkgConfig: "soxr", providers: [.apt(["libsoxr-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CJack", pkgConfig: "jack", providers: [.apt(["libjack-jackd2-dev"])]),

        .target(name: "Protobuf", swiftSettings: vectorISA),
        // SHA-256 of files (libcrypto): corpus outputs, model cards' graphs.
        .target(name: "Checksum", dependencies: ["CCrypto"]),
        // JSON values whose shape is checked field by field: manifests, records, model cards.
        .target(name: "JSONDocument"),
        .target(name: "ONNX", dependencies: ["Protobuf"], swiftSettings: vectorISA),
        // Kernels written once for both vector widths, all inlined: each is compiled into its caller
        // at the caller's ISA (Inference's AVX2, AVX512Kernels' AVX-512).
        .target(name: "VectorKernels", swiftSettings: kernelSettings),
        .target(name: "AVX512Kernels", dependencies: ["VectorKernels"], swiftSettings: wideVectorISA + uncheckedLoops),
        // Prefetch hints for the kernels (header-only C: Swift cannot emit a prefetch itself).
        .target(name: "CacheHints"),
        .target(name: "Inference", dependencies: ["ONNX", "CBLAS", "AVX512Kernels", "VectorKernels", "CacheHints"], swiftSettings: kernelSettings),
        .target(name: "DSP", dependencies: ["CFFTW", "CSndFile", "CSoxr"], swiftSettings: kernelSettings),
        // The seam every command, the simulator and the hosts reach a model through; no model here.
        .target(name: "Enhancement", dependencies: ["DSP"], swiftSettings: vectorISA),
        .target(name: "DeepFilter", dependencies: ["Inference", "DSP", "Enhancement"], swiftSettings: kernelSettings),
        // Any streaming ONNX enhancer a card (card.json beside its graphs) describes, with no code of its own.
        .target(name: "ModelCard", dependencies: ["Inference", "ONNX", "DSP", "Enhancement", "JSONDocument", "Checksum"], swiftSettings: kernelSettings),
        // Models that judge speech rather than enhance it: DNSMOS (quality) and Silero VAD (activity).
        .target(name: "QualityScore", dependencies: ["Inference", "DSP"], swiftSettings: vectorISA),
        .target(name: "VoiceActivity", dependencies: ["Inference", "DSP"], swiftSettings: vectorISA),
        // Every model behind the seam, found by name or folder (built in, or a card): what commands and hosts choose from.
        .target(name: "ModelCatalog", dependencies: ["Enhancement", "DeepFilter", "ModelCard", "JSONDocument"], swiftSettings: vectorISA),
        // Many files per command: manifests, shards, results, reports.
        .target(name: "Corpus", dependencies: ["Enhancement", "ModelCatalog", "DSP", "Checksum", "JSONDocument"], swiftSettings: vectorISA),
        // SVG for every chart the commands, the simulator and the benchmarks draw; nothing of ours below it.
        .target(name: "Plotting"),
        .target(name: "Realtime", dependencies: ["Enhancement", "DSP", "Plotting"], swiftSettings: vectorISA),
        // Any enhancer inside a host's callbacks: variable block sizes, stated latency, pass-through.
        .target(name: "Live", dependencies: ["Enhancement", "DSP", "Realtime"], swiftSettings: vectorISA),
        // The plugins' C ABI in Swift, and the LADSPA/LV2 descriptors in C (headers from Debian's
        // ladspa-sdk and lv2-dev). The Swift runtime is linked into the shared object, so that a
        // host needs no Swift toolchain; nothing else links these two targets.
        .target(name: "LivePlugins", dependencies: ["Live", "ModelCatalog", "Enhancement", "CBLAS"], swiftSettings: vectorISA),
        .target(name: "CLivePlugins", dependencies: ["LivePlugins"], linkerSettings: [.unsafeFlags(staticSwiftRuntime)] + realTimeOpenBLAS),
        // The JACK client behind `dfkit live --jack`.
        .target(name: "LiveJack", dependencies: ["Live", "Enhancement", "DSP", "Realtime", "CJack"], swiftSettings: vectorISA,
                linkerSettings: realTimeOpenBLAS),
        .executableTarget(name: "dfkit", dependencies: ["CZlib", "Checksum", "Corpus", "JSONDocument", "ModelCard", "ModelCatalog", "Enhancement", "DeepFilter", "QualityScore",
                                                        "VoiceActivity", "Realtime", "Live", "LiveJack", "Inference", "ONNX", "DSP", "Plotting"],
                          // The pages' script and style sheet, compiled in: an installed dfkit needs no resource folder.
                          resources: [.embedInCode("Page/report.js"), .embedInCode("Page/listen.js"), .embedInCode("Page/page.css")],
                          swiftSettings: vectorISA),
        .executableTarget(name: "dfbench", dependencies: ["Corpus", "ModelCatalog", "ModelCard", "Enhancement", "DeepFilter", "QualityScore", "VoiceActivity",
                                                          "Realtime", "Inference", "AVX512Kernels", "ONNX", "DSP", "CBLAS", "Plotting"],
                          path: "Benchmarks/dfbench", swiftSettings: vectorISA),

        // Test support shared by the test targets: where the repository's models and fixtures are, one
        // tolerance vocabulary, seeded random numbers.
        .target(name: "TestSupport", dependencies: ["AllocationCounter"], path: "Tests/TestSupport"),
        // The models behind the seam and the sample clip, for the seam's and the live hosts' tests.
        .target(name: "EnhancerFixtures", dependencies: ["Enhancement", "ModelCatalog", "DSP", "TestSupport"], path: "Tests/EnhancerFixtures",
                swiftSettings: vectorISA),
        .testTarget(name: "ProtobufTests", dependencies: ["Protobuf", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "ONNXTests", dependencies: ["ONNX", "Protobuf", "TestSupport"], swiftSettings: vectorISA),
        // Test support: counts a thread's heap allocations by interposing malloc (see its header).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        // Test support: counts a thread's locks, waits, sleeps and yields by interposing them (see its header).
        .target(name: "RealtimeCallCounter", path: "Tests/RealtimeCallCounter", linkerSettings: realTimeOpenBLAS),
        // A small LADSPA/LV2 host for the plugin tests: any block sizes, hostile call sequences,
        // run() counted by both interposers. Exported symbols, so that the plugin's calls reach them.
        .executableTarget(name: "plugin-host", dependencies: ["AllocationCounter", "RealtimeCallCounter"], path: "Tests/PluginHost",
                          linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "AVX512Kernels", "ONNX", "AllocationCounter", "CBLAS", "TestSupport"],
                    swiftSettings: vectorISA),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "DeepFilterTests", dependencies: ["DeepFilter", "Enhancement", "DSP", "Inference", "CBLAS", "TestSupport"],
                    swiftSettings: vectorISA),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime", "DeepFilter", "Enhancement", "DSP", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "EnhancementTests", dependencies: ["Enhancement", "ModelCatalog", "DSP", "TestSupport", "EnhancerFixtures"], swiftSettings: vectorISA),
        .testTarget(name: "ModelCardTests", dependencies: ["ModelCard", "Enhancement", "DSP", "TestSupport", "EnhancerFixtures"],
                    swiftSettings: vectorISA),
        .testTarget(name: "CorpusTests", dependencies: ["Corpus", "Checksum", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "QualityScoreTests", dependencies: ["QualityScore", "DSP", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "VoiceActivityTests", dependencies: ["VoiceActivity", "DSP", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "CLITests", dependencies: ["dfkit", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "PlottingTests", dependencies: ["Plotting"]),
        .testTarget(name: "LiveTests", dependencies: ["Live", "Enhancement", "ModelCatalog", "DSP", "Realtime", "TestSupport", "EnhancerFixtures", "RealtimeCallCounter"],
                    swiftSettings: vectorISA),

        // libFuzzer targets (Scripts/fuzz): each file defines LLVMFuzzerTestOneInput.
        .executableTarget(name: "ModelReaderFuzzer", dependencies: ["ONNX", "Inference"], path: "Fuzz/ModelReaderFuzzer"),
        .executableTarget(name: "NumPyReaderFuzzer", dependencies: ["Inference"], path: "Fuzz/NumPyReaderFuzzer"),
        .executableTarget(name: "ModelConfigFuzzer", dependencies: ["DeepFilter"], path: "Fuzz/ModelConfigFuzzer"),
        .executableTarget(name: "AudioFileFuzzer", dependencies: ["DSP"], path: "Fuzz/AudioFileFuzzer"),
        .executableTarget(name: "ManifestFuzzer", dependencies: ["Corpus", "Enhancement", "ModelCatalog"], path: "Fuzz/ManifestFuzzer"),
        .executableTarget(name: "ResultsLogFuzzer", dependencies: ["Corpus"], path: "Fuzz/ResultsLogFuzzer"),
        .executableTarget(name: "ModelFolderFuzzer", dependencies: ["Enhancement", "ModelCatalog"], path: "Fuzz/ModelFolderFuzzer"),
        .executableTarget(name: "ModelCardFuzzer", dependencies: ["ModelCard"], path: "Fuzz/ModelCardFuzzer"),
    ]
)
