import Foundation

/// libpq's connection service file: sections `[NAME]` of `KEYWORD=VALUE` lines, `#` comments.
///
/// A service is looked up in `PGSERVICEFILE` (else `~/.pg_service.conf`), and when that file
/// does not define it, in `pg_service.conf` of `PGSYSCONFDIR` (else `/etc/postgresql-common`,
/// Debian's). A file that is not there is passed over.
enum ServiceFile {
    /// The folder of the system's service file when `PGSYSCONFDIR` does not say.
    static let systemFolder = "/etc/postgresql-common"

    /// The parameters of the service `name` and the file that defines it.
    /// - Throws: a failure when no file defines it, or the defining file cannot be read.
    static func lookUp(_ name: String, environment: [String: String]) throws(ConnectionString.Failure) -> (
        file: String, parameters: [(ConnectionString.Keyword, String)]
    ) {
        var files: [String] = []
        if let file = environment["PGSERVICEFILE"], !file.isEmpty {
            files.append(file)
        } else if let home = environment["HOME"], !home.isEmpty {
            files.append(home + "/.pg_service.conf")
        }
        let systemFolder = environment["PGSYSCONFDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? systemFolder
        files.append(systemFolder + "/pg_service.conf")
        for file in files {
            guard let contents = FileManager.default.contents(atPath: file) else { continue }
            guard let text = String(data: contents, encoding: .utf8) else {
                throw .init(reason: "the service file \(file) is not UTF-8 text")
            }
            if let parameters = try section(name, of: text, file: file) { return (file, parameters) }
        }
        throw .init(
            reason: "no service file defines the service \(name); looked in "
                + files.joined(separator: " and "))
    }

    /// The parameters of section `name` of a service file's `text`, or nil when it has none.
    /// - Throws: a failure naming `file` and the line of a line that is not a parameter.
    static func section(_ name: String, of text: String, file: String) throws(ConnectionString.Failure)
        -> [(ConnectionString.Keyword, String)]?
    {
        var found: [(ConnectionString.Keyword, String)]?
        var inSection = false
        // Lines end with LF or CRLF (a Character of its own in Swift).
        let lines = text.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        for (number, rawLine) in lines.enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                // A service defined twice is the first definition, as libpq reads it.
                if inSection { return found }
                inSection = line == "[\(name)]"
                if inSection { found = [] }
                continue
            }
            guard inSection else { continue }
            let place = "\(file):\(number + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw .init(reason: "\(place): a service's lines are KEYWORD=VALUE")
            }
            let keywordText = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard let keyword = ConnectionString.Keyword(rawValue: keywordText) else {
                throw .init(reason: "\(place): \(keywordText) is not a connection keyword of libpq")
            }
            guard keyword != .service else {
                throw .init(reason: "\(place): a service cannot name another service")
            }
            found?.append((keyword, line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
        }
        return found
    }
}
