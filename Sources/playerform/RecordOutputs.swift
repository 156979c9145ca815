import Glibc
import PlayerFormSystem
import PlayerFormText

/// Where `validate --valid` and `--invalid` write records: each a file made for the run, or
/// standard output (`-`).
public struct RecordOutputs {
    /// One output: its writer, and its name for messages.
    public struct Output {
        /// Writes the records.
        public let writer: ByteWriter
        /// The path as given, or "standard output".
        public let name: String
    }

    /// Where valid records go.
    public var valid: Output?
    /// Where invalid and malformed records go.
    public var rejected: Output?

    /// Outputs writing with these writers, named for messages.
    public init(valid: Output?, rejected: Output?) {
        self.valid = valid
        self.rejected = rejected
    }

    /// Whether records go to standard output, so that findings must go elsewhere.
    public var usesStandardOutput: Bool {
        valid?.name == Self.standardOutput || rejected?.name == Self.standardOutput
    }

    static let standardOutput = "standard output"

    /// Why the outputs cannot be opened: what to say, and the exit status.
    public struct Refusal: Error {
        /// What to say, with the path escaped.
        public let message: String
        /// The exit status: 64 or 73.
        public let status: ValidationExit
    }

    /// Opens the files named by `--valid` and `--invalid`, made empty, for a run reading `inputs`.
    ///
    /// Refuses a path that is one of the inputs (writing would empty it before it is read) with
    /// status 64, and a file that cannot be made with 73; a file is emptied only once both are
    /// open.
    public static func open(
        valid: String?, invalid: String?, inputs: [ValidationInput]
    ) -> Result<RecordOutputs, Refusal> {
        for (option, path) in [("--valid", valid), ("--invalid", invalid)] {
            guard let path, path != "-" else { continue }
            let bytes = Array(path.utf8)
            if let input = inputs.first(where: { $0.path.map { FileIdentity.same(bytes, $0) } ?? false }) {
                return .failure(
                    Refusal(
                        message: "\(option) \(TerminalText.escaped(path)) is the input "
                            + "\(TerminalText.escaped(input.label)), which writing would empty; name another file",
                        status: .usage))
            }
        }
        // Two writers of one file would write over each other; /dev/null, or another device,
        // takes both.
        if let valid, valid != "-", valid == invalid, !isDevice(valid) {
            return .failure(
                Refusal(
                    message:
                        "--valid and --invalid name the same file, \(TerminalText.escaped(valid)); name two files",
                    status: .usage))
        }
        var opened: [Int32] = []
        var outputs: [Output?] = []
        for (option, path) in [("valid", valid), ("invalid", invalid)] {
            guard let path else {
                outputs.append(nil)
                continue
            }
            if path == "-" {
                outputs.append(Output(writer: ByteWriter(descriptor: 1), name: standardOutput))
                continue
            }
            // Emptied only once both are open: a file that cannot be made leaves the other as it was.
            let descriptor = CommandLineBytes.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                let reason = SystemError.text(errno)
                for descriptor in opened { close(descriptor) }
                return .failure(
                    Refusal(
                        message:
                            "cannot write the \(option) records to \(TerminalText.escaped(path)): \(reason)",
                        status: .cannotCreate))
            }
            opened.append(descriptor)
            outputs.append(
                Output(writer: ByteWriter(descriptor: descriptor), name: TerminalText.escaped(path)))
        }
        // A FIFO or a device is written as it is; only a regular file has anything to empty.
        if opened.count == 2, isSameFile(opened[0], opened[1]) {
            for descriptor in opened { close(descriptor) }
            return .failure(
                Refusal(
                    message:
                        "--valid and --invalid name the same file, \(TerminalText.escaped(valid ?? "")); "
                        + "name two files",
                    status: .usage))
        }
        for descriptor in opened where isRegularFile(descriptor) && ftruncate(descriptor, 0) != 0 {
            let reason = SystemError.text(errno)
            for descriptor in opened { close(descriptor) }
            return .failure(
                Refusal(message: "cannot empty a file for the records: \(reason)", status: .cannotCreate))
        }
        return .success(RecordOutputs(valid: outputs[0], rejected: outputs[1]))
    }

    private static func isDevice(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }

    /// Whether two open descriptors are one file that is not a device.
    private static func isSameFile(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard fstat(first, &a) == 0, fstat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino && (a.st_mode & S_IFMT) != S_IFCHR
    }

    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
