import Foundation
import PlayerFormScores

/// Where a shared league lives: a `postgres://` URL, parsed, with its password kept apart so that
/// nothing prints it.
///
/// The accepted form is `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?PARAMETERS]` (or
/// `postgresql://`). Parameters: `sslmode` (`disable`, `prefer`, `require`, `verify-ca` or
/// `verify-full`, as libpq means them; `disable` when absent), `sslrootcert` (the file of the
/// certificates that the server's certificate must chain to, for `verify-ca` and `verify-full`,
/// and for `prefer` and `require` when the file is there; `system` for the system's, with
/// `verify-full` only; `~/.postgresql/root.crt` when absent) and `host` (a folder holding
/// the server's unix socket, used instead of TCP).
/// ``description`` shows the URL with any password as `***`.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted.
    public enum SSLMode: String, Sendable, Equatable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, its certificate not checked.
        case prefer
        /// TLS or no connection, the server's certificate not checked: the connection is
        /// encrypted, but not proof against a server that pretends to be the league's.
        case require
        /// TLS, with a certificate that chains to a trusted root.
        case verifyCA = "verify-ca"
        /// TLS, with a certificate that chains to a trusted root and names the host.
        case verifyFull = "verify-full"

        /// Whether the server's certificate is checked.
        public var verifies: Bool { self == .verifyCA || self == .verifyFull }
    }

    /// The user to connect as.
    public var user: String
    /// The password given in the URL, if any; never shown.
    public var urlPassword: String?
    /// The host name or address (`localhost` when the URL names none).
    public var host: String
    /// The TCP port, or the number of the socket file in ``socketFolder``.
    public var port: Int
    /// The database.
    public var database: String
    /// TLS or not.
    public var sslMode: SSLMode
    /// The `sslrootcert` parameter: the file of trusted root certificates, `system`, or nil for
    /// the default (see ``rootCertificates(environment:)``).
    public var sslRootCertificate: String?
    /// The folder of the server's unix socket (`?host=/path`), when given: the connection uses
    /// `FOLDER/.s.PGSQL.PORT` instead of TCP.
    public var socketFolder: String?

    /// Whether `text` is meant as a PostgreSQL URL rather than a file path: it begins with
    /// `postgres://` or `postgresql://`, the scheme in any case.
    public static func isURL(_ text: String) -> Bool {
        guard let schemeEnd = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = text[..<schemeEnd].lowercased()
        return (scheme == "postgres" || scheme == "postgresql") && text[schemeEnd...].hasPrefix("://")
    }

    /// Whether `text`, not a URL of ``isURL(_:)``, is shaped like the address of a server rather
    /// than the path of a file.
    ///
    /// A text that begins with `/`, `./`, `../` or `~` is a path. Any other is an address when,
    /// blanks at its start aside, it holds `://` anywhere (`postgress://...`, `jdbc:postgresql://...`,
    /// `Postgres ://...`, a scheme in look-alike letters), has a scheme followed by `:/`
    /// (`postgres:/x`, `file:/x`), begins with `postgres:`, `postgresql:`, `pg:`, `file:` or
    /// `:memory:` (SQLite's in-memory and URI names, which keep nothing or not where a user thinks),
    /// or is a libpq keyword string (`host=... dbname=...`).
    ///
    /// Such a text is refused rather than taken as a file name, which would keep the scores in a
    /// file the user does not know of, with any password in the name of a folder.
    public static func looksLikeAddress(_ text: String) -> Bool {
        if isURL(text) { return false }
        let trimmed = Substring(text).drop(while: { $0.isWhitespace })
        for path in ["/", "./", "../", "~"] where trimmed.hasPrefix(path) { return false }
        if trimmed.contains("://") { return true }
        let lowered = trimmed.lowercased()
        for prefix in ["postgres:", "postgresql:", "pg:", "file:", ":memory:"] where lowered.hasPrefix(prefix)
        {
            return true
        }
        let bytes = Array(trimmed.utf8)
        // RFC 3986: a scheme is a letter, then letters, digits, +, - and .
        if let first = bytes.first, isLetter(first),
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
            bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }),
            colon + 1 < bytes.count, bytes[colon + 1] == UInt8(ascii: "/")
        {
            return true
        }
        return keywordString(String(trimmed))
    }

    /// Whether `text` begins with a keyword of libpq's connection strings and `=`.
    private static func keywordString(_ text: String) -> Bool {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        return libpqKeywords.contains(keyword)
    }

    /// The keywords of libpq's connection strings.
    private static let libpqKeywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "options",
        "application_name", "fallback_application_name", "connect_timeout", "client_encoding", "sslmode",
        "sslrootcert", "sslcert", "sslkey", "sslpassword", "sslcrl", "sslcrldir", "sslsni", "requiressl",
        "sslcompression", "gssencmode", "krbsrvname", "gsslib", "target_session_attrs", "load_balance_hosts",
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
        "replication", "channel_binding", "require_auth", "ssl_min_protocol_version",
        "ssl_max_protocol_version",
    ]

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Parses `text`.
    /// - Throws: `ScoreStoreError.invalidAddress(_:reason:)` saying what is wrong, with the URL's
    ///   password masked.
    public init(url text: String) throws(ScoreStoreError) {
        let masked = Self.masking(text)
        func bad(_ reason: String) -> ScoreStoreError { .invalidAddress(masked, reason: reason) }
        guard let schemeEnd = text.range(of: "://"), Self.isURL(text) else {
            throw bad("it must begin with postgres:// or postgresql://")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw bad("it names no database; write postgres://USER@HOST[:PORT]/DATABASE")
        }
        let authority = rest[..<slash]
        let databaseText = rest[rest.index(after: slash)...]
        guard let at = authority.lastIndex(of: "@") else {
            throw bad("it names no user; write postgres://USER@HOST[:PORT]/DATABASE")
        }
        let userInfo = authority[..<at]
        let hostPort = authority[authority.index(after: at)...]
        let userText: Substring
        if let colon = userInfo.firstIndex(of: ":") {
            userText = userInfo[..<colon]
            guard let password = String(userInfo[userInfo.index(after: colon)...]).removingPercentEncoding
            else {
                throw bad("the password is not valid percent-encoding")
            }
            urlPassword = password
        } else {
            userText = userInfo
            urlPassword = nil
        }
        guard let user = String(userText).removingPercentEncoding, !user.isEmpty else {
            throw bad("the user name is empty or not valid percent-encoding")
        }
        self.user = user
        var hostText = hostPort
        port = 5432
        if hostText.hasPrefix("[") {
            guard let close = hostText.firstIndex(of: "]") else { throw bad("an IPv6 address lacks its ]") }
            let after = hostText[hostText.index(after: close)...]
            hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let number = Int(after.dropFirst()), (1...65535).contains(number)
                else { throw bad("the port must be a number from 1 to 65535") }
                port = number
            }
        } else if let colon = hostText.lastIndex(of: ":") {
            guard let number = Int(hostText[hostText.index(after: colon)...]), (1...65535).contains(number)
            else { throw bad("the port must be a number from 1 to 65535") }
            port = number
            hostText = hostText[..<colon]
        }
        guard let decodedHost = String(hostText).removingPercentEncoding else {
            throw bad("the host is not valid percent-encoding")
        }
        host = decodedHost.isEmpty ? "localhost" : decodedHost
        guard let database = String(databaseText).removingPercentEncoding, !database.isEmpty else {
            throw bad("it names no database; write postgres://USER@HOST[:PORT]/DATABASE")
        }
        self.database = database
        sslMode = .disable
        sslRootCertificate = nil
        socketFolder = nil
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : ""
            switch name {
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw bad(
                        "sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "sslrootcert":
                guard !value.isEmpty else {
                    throw bad("sslrootcert= must name a file of certificates, or system")
                }
                sslRootCertificate = value
            case "host":
                guard value.hasPrefix("/") else { throw bad("host= must name the folder of a unix socket") }
                socketFolder = value
            default:
                throw bad("the parameter \(name) is not known; sslmode, sslrootcert and host are accepted")
            }
        }
        if sslRootCertificate == "system" && sslMode != .verifyFull {
            // As libpq: the system's roots vouch for any name they know, so only with the name checked.
            throw bad("sslrootcert=system needs sslmode=verify-full")
        }
    }

    /// The URL with the password, if any, as `***`.
    public var description: String {
        var text = "postgres://" + Self.encode(user)
        if urlPassword != nil { text += ":***" }
        text += "@" + (host.contains(":") ? "[\(host)]" : host) + ":\(port)/" + Self.encode(database)
        var parameters: [String] = []
        if sslMode != .disable { parameters.append("sslmode=\(sslMode.rawValue)") }
        if let sslRootCertificate { parameters.append("sslrootcert=\(sslRootCertificate)") }
        if let socketFolder { parameters.append("host=\(socketFolder)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    /// Where the server is, for messages: `HOST:PORT`, or the socket file.
    public var endpoint: String {
        if let socketFolder { return "\(socketFolder)/.s.PGSQL.\(port)" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `text` with the password between `user:` and `@` of a URL replaced by `***`, for messages
    /// about a URL that may not parse.
    public static func masking(_ text: String) -> String {
        if keywordString(text) { return maskingKeywordPassword(text) }
        let masked = maskingUserInfo(text)
        // A password may also be a parameter (`?password=...`, `&sslpassword=...`).
        guard let mark = masked.firstIndex(of: "?") else { return masked }
        let parameters = masked[masked.index(after: mark)...].split(
            separator: "&", omittingEmptySubsequences: false
        )
        .map { parameter in
            guard let equals = parameter.firstIndex(of: "="),
                parameter[..<equals].lowercased().contains("pass")
            else { return String(parameter) }
            return parameter[...equals] + "***"
        }
        return masked[...mark] + parameters.joined(separator: "&")
    }

    /// `text` with what stands between the `:` after a user and the last `@` replaced by `***`.
    ///
    /// After `scheme://`, `scheme:/` or `scheme:`. Up to the last `@` of the whole text: a password
    /// that holds a `/` or a `?` (not encoded, so the URL does not parse) is masked too; masking
    /// more than the password is harmless.
    private static func maskingUserInfo(_ text: String) -> String {
        guard let at = text.lastIndex(of: "@"), let schemeEnd = text[..<at].firstIndex(of: ":") else {
            return text
        }
        let authority = text[text.index(after: schemeEnd)..<at].drop(while: { $0 == "/" })
        guard let colon = authority.firstIndex(of: ":") else { return text }
        return String(text[...colon]) + "***" + String(text[at...])
    }

    /// A libpq keyword string with the value of each keyword that holds `pass` as `***`.
    private static func maskingKeywordPassword(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: "pass", options: .caseInsensitive) {
            // The keyword runs on to its `=`, if it is one.
            let keywordEnd = rest[range.upperBound...].prefix(while: { $0.isLetter || $0 == "_" }).endIndex
            result += rest[..<keywordEnd]
            rest = rest[keywordEnd...]
            let spaces = rest.prefix(while: { $0 == " " })
            guard rest.dropFirst(spaces.count).first == "=" else { continue }
            let afterEquals = rest.dropFirst(spaces.count + 1).drop(while: { $0 == " " })
            result += "=***"
            // The value: a quoted one runs to its closing quote (\' escapes one), else to a space.
            if afterEquals.first == "'" {
                var index = afterEquals.index(after: afterEquals.startIndex)
                while index < afterEquals.endIndex, afterEquals[index] != "'" {
                    if afterEquals[index] == "\\" { index = afterEquals.index(after: index) }
                    if index < afterEquals.endIndex { index = afterEquals.index(after: index) }
                }
                rest = index < afterEquals.endIndex ? afterEquals[afterEquals.index(after: index)...] : ""
            } else {
                rest = afterEquals.drop(while: { $0 != " " })
            }
        }
        return result + rest
    }

    /// Where the certificates that a verified server's certificate must chain to come from.
    public enum RootCertificates: Sendable, Equatable {
        /// The system's trusted roots.
        case system
        /// The certificates (PEM) in this file.
        case file(String)
    }

    /// The trusted roots for ``SSLMode/verifyCA`` and ``SSLMode/verifyFull``: `sslrootcert`, else
    /// `~/.postgresql/root.crt` as libpq looks for it; nil when that is not given and `HOME` is
    /// not set.
    public func rootCertificates(environment: [String: String]) -> RootCertificates? {
        if let sslRootCertificate {
            return sslRootCertificate == "system" ? .system : .file(sslRootCertificate)
        }
        return environment["HOME"].map { .file($0 + "/.postgresql/root.crt") }
    }

    /// The password to use: the URL's, else `PGPASSWORD` (when not empty), else the first
    /// matching line of the password file (`PGPASSFILE`, else `~/.pgpass`); nil when none
    /// applies.
    ///
    /// As libpq does, a password file that is not a plain file, or that its group or
    /// others may read or write, is ignored, and `warn` is told why.
    public func password(environment: [String: String], warn: (String) -> Void = { _ in }) -> String? {
        if let urlPassword { return urlPassword }
        if let password = environment["PGPASSWORD"], !password.isEmpty { return password }
        let file =
            environment["PGPASSFILE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["HOME"].map { $0 + "/.pgpass" }
        guard let file else { return nil }
        var status = stat()
        guard stat(file, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else {
            warn("the password file \(file) is not a plain file, so it is ignored")
            return nil
        }
        guard status.st_mode & (S_IRWXG | S_IRWXO) == 0 else {
            warn(
                "the password file \(file) can be read or written by others than its owner, so it is ignored; "
                    + "make it u=rw (0600) or less: chmod 600 \(file)")
            return nil
        }
        guard let contents = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return PasswordFile.password(
            in: contents, host: socketFolder == nil ? host : "localhost", port: port, database: database,
            user: user)
    }
}

/// The password file of PostgreSQL clients (`~/.pgpass`): lines of
/// `host:port:database:user:password`, where `*` in the first four fields matches anything and
/// `\:` and `\\` stand for `:` and `\`.
public enum PasswordFile {
    /// The password of the first line matching the connection, or nil.
    public static func password(in contents: String, host: String, port: Int, database: String, user: String)
        -> String?
    {
        for line in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.hasPrefix("#") { continue }
            let fields = self.fields(of: line)
            guard fields.count == 5 else { continue }
            let wanted = [host, String(port), database, user]
            if zip(fields.prefix(4), wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// The fields of `line`, split at unescaped colons, with escapes resolved.
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }
}

extension PostgresLocation {
    /// `text` with the characters that delimit a URL's parts percent-encoded.
    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.urlUserAllowed
        allowed.remove(charactersIn: ":@/?#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
