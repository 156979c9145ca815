import Foundation
import PlayerFormScores

/// Where a shared league lives and how to connect to it, worked out as libpq works it out: from a
/// URL or a keyword string, then a service file, then the environment, then libpq's defaults.
///
/// Each parameter comes from the first of these that gives it:
/// 1. the text given: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?KEYWORD=VALUE&...]` (or
///    `postgresql://`, any part left out) or a keyword string (`host=/run/postgresql dbname=league`);
/// 2. the section of the service named by `service=` or `PGSERVICE` in `PGSERVICEFILE` (else
///    `~/.pg_service.conf`), else in `pg_service.conf` of `PGSYSCONFDIR` (else
///    `/etc/postgresql-common`);
/// 3. the environment: `PGHOST`, `PGHOSTADDR`, `PGPORT`, `PGDATABASE`, `PGUSER`, `PGPASSWORD`,
///    `PGPASSFILE`, `PGOPTIONS`, `PGAPPNAME`, `PGCONNECT_TIMEOUT`, `PGSSLMODE`, `PGSSLROOTCERT`, ...;
/// 4. the defaults: the unix socket in ``defaultSocketFolder``, port 5432, the system's name of
///    the user, a database of the user's name, `sslmode=prefer`, `application_name=playerform`.
///
/// The password, when none of these gives it, comes from the password file (see
/// ``password(warn:)``). ``description`` never shows a password.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted.
    public enum SSLMode: String, Sendable, Equatable, CaseIterable {
        /// Plain TCP.
        case disable
        /// Plain TCP, or TLS if the server insists; connected as ``prefer`` is, which asks for TLS
        /// first: either way the server's certificate is not checked.
        case allow
        /// TLS when the server offers it, its certificate not checked (libpq's default).
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

    /// Where a parameter came from.
    public enum Source: Sendable, Equatable, CustomStringConvertible {
        /// The URL or keyword string given.
        case written
        /// The section of a service file.
        case service(name: String, file: String)
        /// An environment variable.
        case environment(String)

        /// How a message names the source: `the URL`, `service league in FILE`, `PGSSLMODE`.
        public var description: String {
            switch self {
            case .written: "the address"
            case .service(let name, let file): "service \(name) in \(file)"
            case .environment(let variable): variable
            }
        }
    }

    /// The folder of the server's unix socket when no host is given, as Debian's libpq has it.
    public static let defaultSocketFolder = "/var/run/postgresql"

    /// The user to connect as.
    public var user: String
    /// The password given (in the address, the service file or `PGPASSWORD`), if any; never shown.
    public var givenPassword: String?
    /// The host name, or address, of the server (`localhost` for a unix socket).
    public var host: String
    /// The numeric address to connect to instead of looking `host` up (`hostaddr`), if given.
    public var hostAddress: String?
    /// The TCP port, or the number of the socket file in ``socketFolder``.
    public var port: Int
    /// The database.
    public var database: String
    /// TLS or not.
    public var sslMode: SSLMode
    /// The `sslrootcert` parameter: the file of trusted root certificates, `system`, or nil for
    /// the default (see ``rootCertificates(environment:)``).
    public var sslRootCertificate: String?
    /// The oldest TLS version accepted (`ssl_min_protocol_version`), as written: `TLSv1`,
    /// `TLSv1.1`, `TLSv1.2` (the default) or `TLSv1.3`.
    public var minimumTLSVersion = "TLSv1.2"
    /// See ``minimumTLSVersion``; nil for the newest there is.
    public var maximumTLSVersion: String?
    /// The folder of the server's unix socket, when the connection uses one:
    /// `FOLDER/.s.PGSQL.PORT` instead of TCP.
    public var socketFolder: String?
    /// How the connection is named in the server's `pg_stat_activity`.
    public var applicationName: String
    /// How long connecting may take, in seconds; nil for as long as the system allows.
    public var connectTimeout: Int?
    /// Command-line options for the server's session (`options`, such as `-c search_path=league`).
    public var serverOptions: String?
    /// The password file to read (`passfile`, `PGPASSFILE`, else `~/.pgpass`), if any.
    public var passwordFile: String?
    /// Where each parameter that was not a default came from, by libpq's keyword.
    public var sources: [String: Source]

    /// Whether `text` names a league rather than a score database: a `postgres://` or
    /// `postgresql://` URL (the scheme in any case), or a libpq keyword string (`host=...`,
    /// `service=league`).
    public static func isLeague(_ text: String) -> Bool {
        ConnectionString.isURL(text) || ConnectionString.isKeywordString(text)
    }

    /// Whether `text`, not a league of ``isLeague(_:)``, is shaped like the address of a server
    /// rather than the path of a file.
    ///
    /// A text that begins with `/`, `./`, `../` or `~` is a path. Any other is an address when,
    /// blanks at its start aside, it holds `://` anywhere (`postgress://...`, `jdbc:postgresql://...`,
    /// `Postgres ://...`, a scheme in look-alike letters), has a scheme followed by `:/`
    /// (`postgres:/x`, `file:/x`), begins with `postgres:`, `postgresql:`, `pg:`, `file:` or
    /// `:memory:` (SQLite's in-memory and URI names, which keep nothing or not where a user thinks),
    /// or begins with a word and `=`, as a keyword string with its first keyword mistyped does.
    ///
    /// Such a text is refused rather than taken as a file name, which would keep the scores in a
    /// file the user does not know of, with any password in the name of a folder.
    public static func looksLikeAddress(_ text: String) -> Bool {
        if isLeague(text) { return false }
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
        return ConnectionString.isKeywordShaped(String(trimmed))
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// Whether `text` is a numeric IPv4 or IPv6 address rather than a name.
    public static func isNumericAddress(_ text: String) -> Bool {
        var scratch = in6_addr()
        return inet_pton(AF_INET, text, &scratch) == 1 || inet_pton(AF_INET6, text, &scratch) == 1
    }

    /// The system's name of the user running the program, libpq's default user.
    public static func systemUserName() -> String? {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Works out the league of `text` (a URL or a keyword string), a service file,
    /// `environment` and the defaults, as libpq does.
    /// - Parameters:
    ///   - text: the address: a URL or a keyword string.
    ///   - environment: the variables to read (`PGHOST`, ..., `HOME`).
    ///   - systemUser: the user when none is given (libpq's: the system's name of the user).
    /// - Throws: `ScoreStoreError.invalidAddress(_:reason:)` saying what is wrong and where it was
    ///   written, with any password masked.
    public init(
        _ text: String, environment: [String: String], systemUser: String? = PostgresLocation.systemUserName()
    ) throws(ScoreStoreError) {
        let masked = ConnectionString.masking(text)
        var given: [ConnectionString.Keyword: (value: String, source: Source)] = [:]
        do {
            for (keyword, value) in try ConnectionString.parameters(of: text) {
                given[keyword] = (value, .written)
            }
            if let name = given[.service]?.value
                ?? environment["PGSERVICE"].flatMap({ $0.isEmpty ? nil : $0 })
            {
                let service = try ServiceFile.lookUp(name, environment: environment)
                for (keyword, value) in service.parameters where given[keyword] == nil {
                    given[keyword] = (value, .service(name: name, file: service.file))
                }
            }
        } catch {
            throw .invalidAddress(masked, reason: error.reason)
        }
        for keyword in ConnectionString.Keyword.allCases where given[keyword] == nil {
            if let variable = keyword.environmentVariable, let value = environment[variable], !value.isEmpty {
                given[keyword] = (value, .environment(variable))
            }
        }
        do {
            try self.init(resolving: given, environment: environment, systemUser: systemUser)
        } catch {
            throw .invalidAddress(masked, reason: error.reason)
        }
    }

    /// The location of the parameters `given`, with libpq's defaults for the rest.
    private init(
        resolving given: [ConnectionString.Keyword: (value: String, source: Source)],
        environment: [String: String], systemUser: String?
    ) throws(ConnectionString.Failure) {
        sources = given.reduce(into: [:]) { $0[$1.key.rawValue] = $1.value.source }
        func value(_ keyword: ConnectionString.Keyword) -> String? { given[keyword]?.value }
        /// A failure naming where the keyword's value came from, when not from the address.
        func bad(_ keyword: ConnectionString.Keyword, _ reason: String) -> ConnectionString.Failure {
            guard let source = given[keyword]?.source, source != .written else {
                return .init(reason: reason)
            }
            return .init(reason: "\(reason) (\(keyword.rawValue) from \(source))")
        }
        func oneOf(_ keyword: ConnectionString.Keyword, _ accepted: [String], supported: [String])
            throws(ConnectionString.Failure)
        {
            guard let text = value(keyword) else { return }
            guard accepted.contains(text) else {
                throw bad(keyword, "\(keyword.rawValue) must be one of \(accepted.joined(separator: ", "))")
            }
            guard supported.contains(text) else {
                throw bad(
                    keyword,
                    "\(keyword.rawValue)=\(text) is not supported: playerform's connections do "
                        + supported.joined(separator: " or ") + " only")
            }
        }
        for keyword in [ConnectionString.Keyword.host, .hostaddr, .port]
        where value(keyword)?.contains(",") == true {
            throw bad(
                keyword, "\(keyword.rawValue) names several hosts; playerform connects to one, so give one")
        }
        let hostText = value(.host) ?? ""
        hostAddress = value(.hostaddr).flatMap { $0.isEmpty ? nil : $0 }
        if let hostAddress {
            guard Self.isNumericAddress(hostAddress) else {
                throw bad(.hostaddr, "hostaddr must be a numeric IPv4 or IPv6 address, such as 192.0.2.7")
            }
        }
        if hostText.hasPrefix("/") {
            socketFolder = hostText
            host = "localhost"
        } else if !hostText.isEmpty {
            socketFolder = nil
            host = hostText
        } else if let hostAddress {
            socketFolder = nil
            host = hostAddress
        } else {
            socketFolder = Self.defaultSocketFolder
            host = "localhost"
        }
        if let portText = value(.port), !portText.isEmpty {
            guard let number = Int(portText.trimmingCharacters(in: .whitespaces)),
                (1...65535).contains(number)
            else { throw bad(.port, "the port must be a number from 1 to 65535") }
            port = number
        } else {
            port = 5432
        }
        guard let user = value(.user).flatMap({ $0.isEmpty ? nil : $0 }) ?? systemUser else {
            throw .init(
                reason:
                    "it names no user, and the system's name of this user is unknown; give user= or PGUSER")
        }
        self.user = user
        database = value(.dbname).flatMap { $0.isEmpty ? nil : $0 } ?? user
        // As libpq: an empty password is none, so the password file is read.
        givenPassword = value(.password).flatMap { $0.isEmpty ? nil : $0 }
        passwordFile =
            value(.passfile).flatMap { $0.isEmpty ? nil : $0 } ?? environment["HOME"].map { $0 + "/.pgpass" }
        serverOptions = value(.options).flatMap { $0.isEmpty ? nil : $0 }
        applicationName =
            value(.applicationName) ?? value(.fallbackApplicationName) ?? "playerform"
        if let timeoutText = value(.connectTimeout) {
            guard let seconds = Int(timeoutText.trimmingCharacters(in: .whitespaces)) else {
                throw bad(
                    .connectTimeout, "connect_timeout must be a whole number of seconds (0 for no limit)")
            }
            // As libpq: 0 or less waits as long as the system does, and 1 is taken as 2.
            connectTimeout = seconds <= 0 ? nil : max(seconds, 2)
        } else {
            connectTimeout = nil
        }
        let modes = SSLMode.allCases.map(\.rawValue)
        try oneOf(.sslmode, modes, supported: modes)
        if let modeText = value(.sslmode) {
            sslMode = SSLMode(rawValue: modeText) ?? .prefer
        } else if let required = value(.requiressl) {
            guard required == "0" || required == "1" else {
                throw bad(.requiressl, "requiressl must be 0 or 1; sslmode=require says the same")
            }
            sslMode = required == "1" ? .require : .prefer
        } else {
            sslMode = .prefer
        }
        sslRootCertificate = value(.sslrootcert)
        if sslRootCertificate?.isEmpty == true {
            throw bad(.sslrootcert, "sslrootcert must name a file of certificates, or system")
        }
        if sslRootCertificate == "system" && value(.sslmode) == nil && value(.requiressl) == nil {
            // As libpq 16: the system's roots make verify-full the default.
            sslMode = .verifyFull
        }
        if sslRootCertificate == "system" && sslMode != .verifyFull {
            // As libpq: the system's roots vouch for any name they know, so only with the name checked.
            throw bad(.sslrootcert, "sslrootcert=system needs sslmode=verify-full")
        }
        let versions = ["TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3"]
        try oneOf(.sslMinProtocolVersion, versions, supported: versions)
        try oneOf(.sslMaxProtocolVersion, versions, supported: versions)
        minimumTLSVersion = value(.sslMinProtocolVersion) ?? "TLSv1.2"
        maximumTLSVersion = value(.sslMaxProtocolVersion)
        if let maximum = maximumTLSVersion,
            versions.firstIndex(of: maximum) ?? 0 < versions.firstIndex(of: minimumTLSVersion) ?? 0
        {
            throw bad(
                .sslMaxProtocolVersion, "ssl_max_protocol_version is older than ssl_min_protocol_version")
        }
        if let encoding = value(.clientEncoding) {
            let folded = encoding.lowercased().filter { $0 != "-" && $0 != "_" }
            guard ["utf8", "unicode", "auto"].contains(folded) else {
                throw bad(
                    .clientEncoding,
                    "client_encoding must be UTF8 (or auto): playerform reads and writes UTF-8")
            }
        }
        try oneOf(.gssencmode, ["disable", "prefer", "require"], supported: ["disable", "prefer"])
        try oneOf(.channelBinding, ["disable", "prefer", "require"], supported: ["disable", "prefer"])
        try oneOf(
            .targetSessionAttrs, ["any", "read-write", "read-only", "primary", "standby", "prefer-standby"],
            supported: ["any", "read-write", "primary"])
        try oneOf(.loadBalanceHosts, ["disable", "random"], supported: ["disable", "random"])
        // What a league cannot do: refused when asked for. A client certificate only adds to a
        // connection, so one set in the environment (for other programs) is passed over; a
        // check the connection must pass is refused from anywhere, since passing it over would
        // connect with less than was asked.
        let unsupported: [(ConnectionString.Keyword, String, fromEnvironment: Bool)] = [
            (.sslcert, "client certificates", false), (.sslkey, "client certificates", false),
            (.sslpassword, "client certificates", false), (.sslcrl, "certificate revocation lists", true),
            (.sslcrldir, "certificate revocation lists", true), (.requireAuth, "require_auth", true),
            (.requirepeer, "requirepeer", true), (.replication, "replication connections", false),
        ]
        for (keyword, what, fromEnvironment) in unsupported {
            guard let entry = given[keyword], !entry.value.isEmpty else { continue }
            if case .environment = entry.source, !fromEnvironment { continue }
            throw bad(
                keyword, "\(keyword.rawValue) is not supported: playerform's connections have no \(what)")
        }
        if value(.sslCertMode) == "require" {
            throw bad(
                .sslCertMode, "sslcertmode=require is not supported: playerform sends no client certificate")
        }
    }

    /// The URL of the league, with any password as `***`.
    public var description: String {
        var text = "postgres://" + Self.encode(user)
        if givenPassword != nil { text += ":***" }
        text += "@"
        if socketFolder == nil { text += host.contains(":") ? "[\(host)]" : Self.encode(host) }
        text += ":\(port)/" + Self.encode(database)
        var parameters: [String] = []
        if let socketFolder { parameters.append("host=\(socketFolder)") }
        if let hostAddress { parameters.append("hostaddr=\(hostAddress)") }
        if sslMode != .prefer { parameters.append("sslmode=\(sslMode.rawValue)") }
        if let sslRootCertificate { parameters.append("sslrootcert=\(sslRootCertificate)") }
        if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
        return text
    }

    /// Where the server is, for messages: `HOST:PORT`, or the socket file.
    public var endpoint: String {
        if let socketFolder { return "\(socketFolder)/.s.PGSQL.\(port)" }
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `text` with every password written in it as `***`: see ``ConnectionString/masking(_:)``.
    public static func masking(_ text: String) -> String { ConnectionString.masking(text) }

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

    /// The password to use: the one given (address, service file, `PGPASSWORD`), else that of
    /// the first matching line of ``passwordFile``; nil when none applies.
    ///
    /// As libpq does, a password file that is not a plain file, or that its group or others may
    /// read or write, is ignored, and `warn` is told why. A line's host is matched against the
    /// host name, or `localhost` for the default unix socket and the folder for any other.
    public func password(warn: (String) -> Void = { _ in }) -> String? {
        if let givenPassword { return givenPassword }
        guard let file = passwordFile else { return nil }
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
        let fileHost =
            switch socketFolder {
            case nil: host
            case Self.defaultSocketFolder?: "localhost"
            case let folder?: folder
            }
        return PasswordFile.password(in: contents, host: fileHost, port: port, database: database, user: user)
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
