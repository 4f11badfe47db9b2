import EnhancerFixtures
import DSP
import Foundation
import Testing
import TestSupport

/// `dfkit live --jack` against a real JACK server: each test starts `jackd -d dummy` (no sound
/// hardware) on a server name of its own (JACK_DEFAULT_SERVER), runs the client over a 20 s clip
/// and stops the server. The client must report no xruns and write the streaming path's samples
/// (`dfkit enhance --streaming --float`, within 1e-6: the same enhancer fed the same frames).
///
/// jackd is started with real-time scheduling (-R) and, where the machine refuses it (no
/// CAP_SYS_NICE or rtprio limit), without (-r); the test's output says which it got.
@Suite(.serialized) struct JackClientTests {
    static let tolerance = Float(Tolerance.reordered.absolute)

    /// A dummy-driver JACK server of its own, stopped by `stop()` (call it at the end of the test,
    /// which also keeps the server alive until then).
    final class Server {
        let name: String
        let process: Process
        let realtime: Bool
        /// jackd's own output, for the failure messages.
        let log: String

        init(period: Int, rate: Int = 48_000) throws {
            let jackd = try Subprocess.tool("jackd", package: "jackd2")
            name = "dfkit-\(getpid())-\(period)-\(UInt32.random(in: 0...UInt32.max))"
            var started: (Process, Bool)?
            log = try HostFixtures.get().scratch("jackd-\(period).log")
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            for realtime in [true, false] {
                let process = Process()
                process.executableURL = jackd
                process.arguments = [realtime ? "-R" : "-r", "-d", "dummy", "-r", "\(rate)", "-p", "\(period)"]
                process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": name, "JACK_NO_AUDIO_RESERVATION": "1"]) { $1 }
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
                handle.seekToEndOfFile()
                process.standardOutput = handle
                process.standardError = handle
                try process.run()
                if try Self.waitUntilUp(name, process) {
                    // A client connecting right after another has left (jack_wait's) is refused
                    // ("Cannot connect to server socket") for a moment; a second is always enough here.
                    sleep(1)
                    started = (process, realtime)
                    break
                }
                process.terminate()
                process.waitUntilExit()
            }
            guard let started else {
                throw Subprocess.Missing(description: "jackd -d dummy -p \(period) did not come up, with -R or -r: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
            }
            process = started.0
            // jackd -R keeps running without real-time scheduling when the system refuses it.
            realtime = started.1 && !((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").contains("Cannot use real-time scheduling")
        }

        var output: String { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }

        func stop() {
            guard process.isRunning else { return }
            process.terminate()
            process.waitUntilExit()
        }

        /// Up within 10 s: `jack_wait -c` says "running" (and jackd has not exited, as it does when
        /// refused real-time scheduling).
        static func waitUntilUp(_ name: String, _ process: Process) throws -> Bool {
            let jackWait = try Subprocess.tool("jack_wait", package: "jackd2")
            for _ in 0..<100 {
                guard process.isRunning else { return false }
                let result = try ChildProcess.run(jackWait, ["-c"], environment: ["JACK_DEFAULT_SERVER": name])
                if result.succeeded && result.standardOutput.contains("running") { return true }
                usleep(100_000)
            }
            return false
        }
    }

    /// 20 s of the sample clip (its 10 s twice) at 48 kHz, and its streaming reference.
    static let clip = Result { () throws -> (path: String, reference: [Float]) in
        let fixtures = try HostFixtures.get()
        let path = fixtures.directory.appendingPathComponent("speech48-20s.wav").path
        let ten = try Models.speech(rate: 48_000, seconds: 10)
        try AudioFileWriter.write(AudioSignal(sampleRate: 48_000, channels: [ten + ten]), to: path, encoding: .float32)
        let reference = try PluginHostTests.referenceFor(path, model: "dfn3")
        return (path, reference[0])
    }

    static func json(_ output: ChildProcess.Output, _ server: Server) throws -> [String: Any] {
        try #require(output.succeeded, "dfkit live failed (\(output.status)): \(output.standardError)\njackd (running: \(server.process.isRunning)): \(server.output)\n/dev/shm: \((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])")
        return try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
    }

    /// Up to five attempts, each on a fresh server: on the project's 2-core VM under load a
    /// SCHED_FIFO client thread is now and then not woken within a period at all (jackd logs
    /// "client = … was not finished, state = Triggered"; jack_metro, a client that does nothing,
    /// meets it as often as ours, and the host's steal time grows meanwhile), which says nothing
    /// about the client, while a client too slow for its period misses in every attempt. The
    /// shortest period runs last, when the rest of the suite has mostly finished. Every attempt's
    /// report and jackd's xrun lines are printed.
    @Test(arguments: [1024, 480, 256])
    func twentySecondsWithoutXRunsAndTheStreamingPathsSamples(period: Int) throws {
        let (input, reference) = try Self.clip.get()
        var report: [String: Any] = [:]
        var output = ""
        let attempts = 5
        for attempt in 1...attempts {
            let server = try Server(period: period)
            defer { server.stop() }
            output = try HostFixtures.get().scratch("jack-\(period).wav")
            let result = try ChildProcess.run(try ChildProcess.builtProduct("dfkit"), ["live", "--jack", "--input", input, "--output", output, "--json"],
                                            environment: try HostFixtures.get().environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 })
            report = try Self.json(result, server)
            let xrunLines = server.output.split(separator: "\n").filter { $0.contains("XRun") }
            print("attempt \(attempt), jackd -p \(period), real-time scheduling \(server.realtime ? "granted" : "refused here (jackd runs without it)"): "
                  + "\(result.standardOutput)\(xrunLines.isEmpty ? "" : "jackd: " + xrunLines.joined(separator: "; "))")
            if report["xruns"] as? Int == 0 || attempt == attempts { break }
            try? FileManager.default.removeItem(atPath: output)
        }
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(report["xruns"] as? Int == 0, "xruns at period \(period) in \(attempts) attempts")
        #expect(report["period_frames"] as? Int == period)
        #expect(report["sample_rate"] as? Int == 48_000)
        // DFN3's 1440 samples plus frame − gcd(period, frame) for a fixed period of 480-sample frames.
        let gcd = [256: 32, 480: 480, 1024: 32][period]!
        #expect(report["latency_samples"] as? Int == 1_440 + 480 - gcd)
        #expect(report["underruns"] as? Int == 0)
        #expect(report["overruns"] as? Int == 0)
        #expect((report["callbacks"] as? Int ?? 0) >= 20 * 48_000 / period)
        let written = try AudioFileReader.read(path: output).channels[0]
        #expect(written.count == reference.count)
        let difference = HostFixtures.largestDifference([written], shiftedBy: 0, from: [reference])
        #expect(difference <= Self.tolerance, "period \(period): \(difference)")
    }

    /// `--any-period`: the server's period changed twice while the client plays the 20 s clip
    /// (`jack_bufsize` 256 → 1024 → 480). The output is still the streaming path's samples, at the
    /// latency of any block sizes (DFN3's 1440 plus 480 − 1), with no late sample. A missed cycle
    /// does not matter here: the file is played by the callbacks, so none is lost.
    @Test func aPeriodChangedWhileRunningKeepsTheStreamingPathsSamples() throws {
        let (input, reference) = try Self.clip.get()
        let server = try Server(period: 256)
        defer { server.stop() }
        let output = try HostFixtures.get().scratch("jack-any-period.wav")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let environment = try HostFixtures.get().environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 }
        let bufsize = try Subprocess.tool("jack_bufsize", package: "jackd2")
        let name = server.name
        let changer = Thread {
            for (delay, period) in [(4, 1024), (4, 480)] {
                sleep(UInt32(delay))
                _ = try? ChildProcess.run(bufsize, ["\(period)"], environment: ["JACK_DEFAULT_SERVER": name])
            }
        }
        changer.start()
        let result = try ChildProcess.run(try ChildProcess.builtProduct("dfkit"), ["live", "--jack", "--any-period", "--input", input, "--output", output, "--json"],
                                          environment: environment)
        let report = try Self.json(result, server)
        print("jackd -p 256 → 1024 → 480, --any-period: \(result.standardOutput)")
        #expect(report["period_frames"] as? Int == 480, "the period at the end")
        #expect(report["latency_samples"] as? Int == 1_440 + 480 - 1)
        #expect(report["late_samples"] as? Int == 0)
        #expect(report["underruns"] as? Int == 0 && report["overruns"] as? Int == 0)
        let written = try AudioFileReader.read(path: output).channels[0]
        #expect(written.count == reference.count)
        let difference = HostFixtures.largestDifference([written], shiftedBy: 0, from: [reference])
        #expect(difference <= Self.tolerance, "\(difference)")
    }

    @Test func theTextReportNamesWhatItMeasured() throws {
        let server = try Server(period: 480)
        defer { server.stop() }
        let fixtures = try HostFixtures.get()
        let result = try ChildProcess.run(try ChildProcess.builtProduct("dfkit"), ["live", "--jack", "--model", "gtcrn", "--input", fixtures.clip("speech48").wav],
                                        environment: fixtures.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 })
        try #require(result.succeeded, "\(result.standardError)")
        for line in ["jack live: gtcrn on server '\(server.name)' at 48000 Hz, period 480 frames", "  latency ", "  callbacks ", ", xruns ",
                     "  DSP load % ", "  processing ms    mean ", " p99 ", "  callback load "] {
            #expect(result.standardOutput.contains(line), "'\(line)' missing from:\n\(result.standardOutput)")
        }
    }

    @Test func refusalsNameWhatIsWrong() throws {
        let dfkit = try ChildProcess.builtProduct("dfkit")
        let fixtures = try HostFixtures.get()
        let noJack = try ChildProcess.run(dfkit, ["live", "--input", fixtures.clip("speech48").wav])
        #expect(noJack.status == 1 && noJack.standardError.contains("--jack is required"), "\(noJack.standardError)")
        let noServer = try ChildProcess.run(dfkit, ["live", "--jack", "--seconds", "1"], environment: ["JACK_DEFAULT_SERVER": "dfkit-nobody-\(getpid())"])
        #expect(noServer.status == 1 && noServer.standardError.contains("cannot reach the JACK server 'dfkit-nobody-\(getpid())'"), "\(noServer.standardError)")
        let server = try Server(period: 256)
        defer { server.stop() }
        let wrongRate = try ChildProcess.run(dfkit, ["live", "--jack", "--input", fixtures.clip("speech16").wav],
                                           environment: fixtures.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 })
        #expect(wrongRate.status == 1 && wrongRate.standardError.contains("is 16000 Hz but the JACK server runs at 48000 Hz"), "\(wrongRate.standardError)")
    }
}
