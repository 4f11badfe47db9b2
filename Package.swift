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

let package = Package(
    name: "DeepFilterKit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "dfkit", targets: ["dfkit"]),
        .executable(name: "dfbench", targets: ["dfbench"]),
        .library(name: "DeepFilterKit", targets: ["DeepFilter", "Realtime", "Inference", "ONNX", "DSP"]),
    ],
    targets: [
        .systemLibrary(name: "CBLAS", pkgConfig: "openblas", providers: [.apt(["libopenblas-dev"])]),
        .systemLibrary(name: "CFFTW", pkgConfig: "fftw3f", providers: [.apt(["libfftw3-dev"])]),
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),

        .target(name: "Protobuf", swiftSettings: vectorISA),
        .target(name: "ONNX", dependencies: ["Protobuf"], swiftSettings: vectorISA),
        .target(name: "AVX512Kernels", swiftSettings: wideVectorISA + uncheckedLoops),
        // Prefetch hints for the kernels (header-only C: Swift cannot emit a prefetch itself).
        .target(name: "CacheHints"),
        .target(name: "Inference", dependencies: ["ONNX", "CBLAS", "AVX512Kernels", "CacheHints"], swiftSettings: kernelSettings),
        .target(name: "DSP", dependencies: ["CFFTW", "CSndFile"], swiftSettings: kernelSettings),
        .target(name: "DeepFilter", dependencies: ["Inference", "DSP"], swiftSettings: kernelSettings),
        .target(name: "Realtime", dependencies: ["DeepFilter", "DSP"], swiftSettings: vectorISA),
        .executableTarget(name: "dfkit", dependencies: ["DeepFilter", "Realtime", "Inference", "ONNX", "DSP"],
                          swiftSettings: vectorISA),
        .executableTarget(name: "dfbench", dependencies: ["DeepFilter", "Realtime", "Inference", "AVX512Kernels", "ONNX", "DSP", "CBLAS"],
                          path: "Benchmarks/dfbench", swiftSettings: vectorISA),

        // Test support shared by several test targets: seeded random numbers, generated-fixture lookup.
        .target(name: "TestSupport", dependencies: ["AllocationCounter"], path: "Tests/TestSupport"),
        .testTarget(name: "ProtobufTests", dependencies: ["Protobuf", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "ONNXTests", dependencies: ["ONNX", "Protobuf", "TestSupport"], swiftSettings: vectorISA),
        // Test support: counts a thread's heap allocations by interposing malloc (see its header).
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(name: "InferenceTests", dependencies: ["Inference", "AVX512Kernels", "ONNX", "AllocationCounter", "CBLAS", "TestSupport"],
                    swiftSettings: vectorISA),
        .testTarget(name: "DSPTests", dependencies: ["DSP", "TestSupport"], swiftSettings: vectorISA),
        .testTarget(name: "DeepFilterTests", dependencies: ["DeepFilter", "DSP", "Inference", "CBLAS", "TestSupport"],
                    swiftSettings: vectorISA),
        .testTarget(name: "RealtimeTests", dependencies: ["Realtime", "DeepFilter", "DSP"], swiftSettings: vectorISA),
        .testTarget(name: "CLITests", dependencies: ["dfkit"], swiftSettings: vectorISA),

        // libFuzzer targets (Scripts/fuzz): each file defines LLVMFuzzerTestOneInput.
        .executableTarget(name: "ModelReaderFuzzer", dependencies: ["ONNX", "Inference"], path: "Fuzz/ModelReaderFuzzer"),
        .executableTarget(name: "NumPyReaderFuzzer", dependencies: ["Inference"], path: "Fuzz/NumPyReaderFuzzer"),
        .executableTarget(name: "ModelConfigFuzzer", dependencies: ["DeepFilter"], path: "Fuzz/ModelConfigFuzzer"),
        .executableTarget(name: "AudioFileFuzzer", dependencies: ["DSP"], path: "Fuzz/AudioFileFuzzer"),
    ]
)
