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
    /// Refuses a file that is one of the inputs, standard input included (writing would empty it
    /// before it is read), or both outputs naming one file, with status 64; a file that cannot be
    /// made with 73. The files are compared once open, whatever the names that lead to them, and
    /// emptied only once both are open and accepted.
    public static func open(
        valid: String?, invalid: String?, inputs: [ValidationInput], standardInput: Int32 = 0
    ) -> Result<RecordOutputs, Refusal> {
        // Two writers of one file would write over each other; /dev/null, or another device,
        // takes both.
        if let valid, valid != "-", valid == invalid, !isDevice(valid) {
            return .failure(
                Refusal(
                    message:
                        "--valid and --invalid name the same file, \(TerminalText.escaped(valid)); name two files",
                    status: .usage))
        }
        var opened: [(option: String, path: String, descriptor: Int32)] = []
        func refuse(_ refusal: Refusal) -> Result<RecordOutputs, Refusal> {
            for output in opened { close(output.descriptor) }
            return .failure(refusal)
        }
        var outputs: [Output?] = []
        for (option, path) in [("--valid", valid), ("--invalid", invalid)] {
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
                return refuse(
                    Refusal(
                        message:
                            "cannot write the \(option.dropFirst(2)) records to \(TerminalText.escaped(path)): "
                            + reason,
                        status: .cannotCreate))
            }
            opened.append((option, path, descriptor))
            outputs.append(
                Output(writer: ByteWriter(descriptor: descriptor), name: TerminalText.escaped(path)))
        }
        let inputFiles = inputs.compactMap { input in
            identity(of: input, standardInput: standardInput).map { (input.label, $0) }
        }
        for output in opened {
            guard let written = identity(of: output.descriptor), !written.isDevice else { continue }
            if let input = inputFiles.first(where: { $0.1.dev == written.dev && $0.1.ino == written.ino }) {
                return refuse(
                    Refusal(
                        message: "\(output.option) \(TerminalText.escaped(output.path)) is the input "
                            + "\(TerminalText.escaped(input.0)), which writing would empty; name another file",
                        status: .usage))
            }
        }
        if opened.count == 2, let first = identity(of: opened[0].descriptor), !first.isDevice,
            let second = identity(of: opened[1].descriptor), first.dev == second.dev, first.ino == second.ino
        {
            return refuse(
                Refusal(
                    message:
                        "--valid and --invalid name the same file, \(TerminalText.escaped(opened[0].path)); "
                        + "name two files",
                    status: .usage))
        }
        // A FIFO or a device is written as it is; only a regular file has anything to empty.
        for output in opened where isRegularFile(output.descriptor) && ftruncate(output.descriptor, 0) != 0 {
            let reason = SystemError.text(errno)
            return refuse(
                Refusal(
                    message: "cannot empty \(TerminalText.escaped(output.path)) for the records: \(reason)",
                    status: .cannotCreate))
        }
        return .success(RecordOutputs(valid: outputs[0], rejected: outputs[1]))
    }

    /// Which file something is: its device and inode, and whether it is a character device.
    private struct Identity {
        let dev: UInt
        let ino: UInt
        let isDevice: Bool

        init(_ status: stat) {
            dev = UInt(status.st_dev)
            ino = UInt(status.st_ino)
            isDevice = (status.st_mode & S_IFMT) == S_IFCHR
        }
    }

    private static func identity(of descriptor: Int32) -> Identity? {
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Identity(status) : nil
    }

    /// The file `input` reads: the file at its path, or what standard input is.
    private static func identity(of input: ValidationInput, standardInput: Int32) -> Identity? {
        guard let path = input.path else { return identity(of: standardInput) }
        var status = stat()
        let found = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { stat($0.baseAddress!, &status) == 0 }
        }
        return found ? Identity(status) : nil
    }

    private static func isDevice(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }

    private static func isRegularFile(_ descriptor: Int32) -> Bool {
        var status = stat()
        return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
