import Foundation
import Inference

@main
enum DFKit {
    /// Every subcommand, in the order `dfkit --help` lists them. Add a command here and in its own file.
    static var commands: [any Command.Type] {
        [
            EnhanceCommand.self,
            CompareCommand.self,
            ScoreCommand.self,
            VADCommand.self,
            InspectCommand.self,
            SimulateCommand.self,
            LiveCommand.self,
            RunCommand.self,
            ModelsCommand.self,
            CardCommand.self,
            ReportCommand.self,
            ListenCommand.self,
        ]
    }

    static func main() {
        OpenBLASEnvironment.restartSingleThreadedIfUnset()
        var arguments = Array(CommandLine.arguments.dropFirst())
        guard let name = arguments.first, !["--help", "-h", "help"].contains(name) else {
            printUsage()
            exit(arguments.isEmpty ? 1 : 0)
        }
        guard let commandType = commands.first(where: { $0.name == name }) else {
            exitWithError("unknown command '\(name)'; run 'dfkit --help' for the list")
        }
        arguments.removeFirst()
        if arguments.contains("--help") || arguments.contains("-h") {
            print(commandType.help)
            exit(0)
        }
        do {
            var list = ArgumentList(arguments)
            let command = try commandType.init(arguments: &list)
            try command.run()
        } catch let error as CommandLineError {
            exitWithError("\(error.description); run 'dfkit \(name) --help' for usage")
        } catch {
            exitWithError("\(error)")
        }
    }

    static func printUsage() {
        var text = """
            dfkit — speech enhancement (any model `dfkit models` lists, or a card you write) and real-time capture research toolkit

            USAGE: dfkit <command> [options]

            COMMANDS:

            """
        let width = commands.map { $0.name.count }.max() ?? 0
        for command in commands {
            text += "  " + command.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'dfkit <command> --help' for the options of one command."
        print(text)
    }

    /// Prints each line of `message` as an error line and exits with status 1.
    static func exitWithError(_ message: String) -> Never {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: true).map { "dfkit: error: \($0)\n" }
        FileHandle.standardError.write(Data(lines.joined().utf8))
        exit(1)
    }
}
