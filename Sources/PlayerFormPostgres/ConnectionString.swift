import Foundation

/// libpq's two ways of writing connection parameters, read as libpq reads them: the URL
/// (`postgresql://[USER[:PASSWORD]@][HOST][:PORT][/DATABASE][?KEYWORD=VALUE&...]`) and the keyword
/// string (`host=/run/postgresql dbname=league`, values in single quotes when they hold spaces).
///
/// Reading gives the parameters as written, later ones replacing earlier ones; what is not
/// written comes from a service file, the environment or a default (see
/// ``PostgresLocation/init(_:environment:systemUser:)``).
public enum ConnectionString {
    /// Why a text cannot be read.
    public struct Failure: Error, Equatable, Sendable {
        /// What is wrong, and what is accepted.
        public var reason: String
    }

    /// Whether `text` begins with `postgres://` or `postgresql://`, the scheme in any case.
    public static func isURL(_ text: String) -> Bool {
        guard let schemeEnd = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = text[..<schemeEnd].lowercased()
        return (scheme == "postgres" || scheme == "postgresql") && text[schemeEnd...].hasPrefix("://")
    }

    /// Whether `text`, blanks aside, begins with one of libpq's keywords and `=`
    /// (`host=...`, `service = league`).
    public static func isKeywordString(_ text: String) -> Bool {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let keyword = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
        return Keyword(rawValue: keyword) != nil
    }

    /// Whether `text`, blanks aside, begins with a word of letters and `_`, then `=`: a keyword
    /// string, its keywords right or not (`hots=db dbname=league`).
    public static func isKeywordShaped(_ text: String) -> Bool {
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" })
        let word = trimmed.prefix(while: { $0.isASCII && ($0.isLetter || $0 == "_") })
        return !word.isEmpty
            && trimmed.dropFirst(word.count).drop(while: { $0 == " " || $0 == "\t" }).first == "="
    }

    /// The parameters written in `text`, a URL or a keyword string, in the order written.
    /// - Throws: ``Failure`` saying what cannot be read.
    public static func parameters(of text: String) throws(Failure) -> [(Keyword, String)] {
        isURL(text) ? try urlParameters(text) : try keywordParameters(text)
    }

    /// The parameters of a keyword string: `KEYWORD = VALUE` pairs apart by blanks; a value in
    /// single quotes may hold blanks, and in any value a backslash takes the next character as it is.
    static func keywordParameters(_ text: String) throws(Failure) -> [(Keyword, String)] {
        var result: [(Keyword, String)] = []
        var rest = Substring(text)
        func skipBlanks() { rest = rest.drop(while: \.isWhitespace) }
        while true {
            skipBlanks()
            guard !rest.isEmpty else { return result }
            let name = rest.prefix(while: { !$0.isWhitespace && $0 != "=" })
            rest = rest.dropFirst(name.count)
            skipBlanks()
            guard rest.first == "=" else {
                throw Failure(reason: "\"=\" is missing after \"\(name)\"; write KEYWORD=VALUE")
            }
            rest = rest.dropFirst()
            skipBlanks()
            var value = ""
            if rest.first == "'" {
                rest = rest.dropFirst()
                var closed = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first {
                        value.append(next)
                        rest = rest.dropFirst()
                    } else if character == "'" {
                        closed = true
                        break
                    } else {
                        value.append(character)
                    }
                }
                guard closed else {
                    throw Failure(reason: "the quoted value of \(name) has no closing '")
                }
            } else {
                while let character = rest.first, !character.isWhitespace {
                    rest = rest.dropFirst()
                    if character == "\\", let next = rest.first {
                        value.append(next)
                        rest = rest.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
            }
            guard let keyword = Keyword(rawValue: String(name)) else {
                throw Failure(reason: "\(name) is not a connection keyword of libpq")
            }
            result.append((keyword, value))
        }
    }

    /// The parameters of a URL.
    ///
    /// User, password, host, port and database come from their places, the
    /// rest from the query (`?sslmode=require&application_name=desk`), which may also give any of
    /// the former; `ssl=true` means `sslmode=require`. Each part is percent-decoded.
    static func urlParameters(_ text: String) throws(Failure) -> [(Keyword, String)] {
        guard let schemeEnd = text.range(of: "://") else {
            throw Failure(reason: "it must begin with postgres:// or postgresql://")
        }
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let authority = rest.prefix(while: { $0 != "/" })
        let path = rest.dropFirst(authority.count).dropFirst()
        var result: [(Keyword, String)] = []
        func decoded(_ part: Substring, _ what: String) throws(Failure) -> String {
            guard let text = String(part).removingPercentEncoding, !text.contains("\0") else {
                throw Failure(reason: "the \(what) is not valid percent-encoding")
            }
            return text
        }
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let userPart = userInfo.prefix(while: { $0 != ":" })
            let user = try decoded(userPart, "user name")
            if !user.isEmpty { result.append((.user, user)) }
            if userPart.endIndex < userInfo.endIndex {
                let password = try decoded(userInfo[userInfo.index(after: userPart.endIndex)...], "password")
                // As libpq: `USER:@HOST` gives no password.
                if !password.isEmpty { result.append((.password, password)) }
            }
        }
        guard !hostPort.contains(",") else {
            throw Failure(reason: "it names several hosts; playerform connects to one, so give one")
        }
        var hostText = hostPort
        var portText: Substring = ""
        if hostText.hasPrefix("[") {
            guard let close = hostText.firstIndex(of: "]") else {
                throw Failure(reason: "an IPv6 address lacks its ]")
            }
            let after = hostText[hostText.index(after: close)...]
            hostText = hostText[hostText.index(after: hostText.startIndex)..<close]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw Failure(reason: "after an IPv6 address's ] comes :PORT")
                }
                portText = after.dropFirst()
            }
        } else if let colon = hostText.lastIndex(of: ":") {
            portText = hostText[hostText.index(after: colon)...]
            hostText = hostText[..<colon]
        }
        let host = try decoded(hostText, "host")
        if !host.isEmpty { result.append((.host, host)) }
        if !portText.isEmpty { result.append((.port, try decoded(portText, "port"))) }
        let database = try decoded(path, "database name")
        if !database.isEmpty { result.append((.dbname, database)) }
        for pair in query.split(separator: "&") {
            guard let equals = pair.firstIndex(of: "=") else {
                throw Failure(reason: "the parameter \(pair) has no =VALUE")
            }
            let name = try decoded(pair[..<equals], "parameter name")
            let value = try decoded(pair[pair.index(after: equals)...], "value of \(name)")
            if name == "ssl" {
                // As libpq: JDBC's ssl=true.
                guard value == "true" else {
                    throw Failure(reason: "ssl=\(value) is not accepted; ssl=true means sslmode=require")
                }
                result.append((.sslmode, "require"))
                continue
            }
            guard let keyword = Keyword(rawValue: name) else {
                throw Failure(reason: "the parameter \(name) is not a connection keyword of libpq")
            }
            result.append((keyword, value))
        }
        return result
    }

    /// A URL or keyword string with every password written in it as `***`, for messages about a
    /// text that may not parse: between `USER:` and `@` of a URL, and the value of each
    /// parameter or keyword whose name holds `pass`.
    public static func masking(_ text: String) -> String {
        if isKeywordShaped(text) { return maskingKeywordPassword(text) }
        let masked = maskingUserInfo(text)
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

    /// A keyword string with the value of each keyword that holds `pass` as `***`.
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

    /// The connection keywords of libpq (version 16), with the environment variable of each that
    /// has one.
    public enum Keyword: String, CaseIterable, Sendable {
        case host, hostaddr, port, dbname, user, password, passfile, service, options
        case applicationName = "application_name"
        case fallbackApplicationName = "fallback_application_name"
        case connectTimeout = "connect_timeout"
        case clientEncoding = "client_encoding"
        case sslmode, sslrootcert, requiressl, sslcert, sslkey, sslpassword, sslcrl, sslcrldir, sslsni
        case sslcompression, gssencmode, krbsrvname, gsslib, keepalives
        case sslCertMode = "sslcertmode"
        case keepalivesIdle = "keepalives_idle"
        case keepalivesInterval = "keepalives_interval"
        case keepalivesCount = "keepalives_count"
        case tcpUserTimeout = "tcp_user_timeout"
        case targetSessionAttrs = "target_session_attrs"
        case loadBalanceHosts = "load_balance_hosts"
        case channelBinding = "channel_binding"
        case requireAuth = "require_auth"
        case sslMinProtocolVersion = "ssl_min_protocol_version"
        case sslMaxProtocolVersion = "ssl_max_protocol_version"
        case replication, requirepeer, gssdelegation

        /// The variable libpq reads when the keyword is not given, if any.
        public var environmentVariable: String? {
            switch self {
            case .host: "PGHOST"
            case .hostaddr: "PGHOSTADDR"
            case .port: "PGPORT"
            case .dbname: "PGDATABASE"
            case .user: "PGUSER"
            case .password: "PGPASSWORD"
            case .passfile: "PGPASSFILE"
            case .service: "PGSERVICE"
            case .options: "PGOPTIONS"
            case .applicationName: "PGAPPNAME"
            case .connectTimeout: "PGCONNECT_TIMEOUT"
            case .clientEncoding: "PGCLIENTENCODING"
            case .sslmode: "PGSSLMODE"
            case .sslrootcert: "PGSSLROOTCERT"
            case .requiressl: "PGREQUIRESSL"
            case .sslcert: "PGSSLCERT"
            case .sslkey: "PGSSLKEY"
            case .sslcrl: "PGSSLCRL"
            case .sslcrldir: "PGSSLCRLDIR"
            case .sslsni: "PGSSLSNI"
            case .sslCertMode: "PGSSLCERTMODE"
            case .sslcompression: "PGSSLCOMPRESSION"
            case .gssencmode: "PGGSSENCMODE"
            case .krbsrvname: "PGKRBSRVNAME"
            case .gsslib: "PGGSSLIB"
            case .targetSessionAttrs: "PGTARGETSESSIONATTRS"
            case .loadBalanceHosts: "PGLOADBALANCEHOSTS"
            case .channelBinding: "PGCHANNELBINDING"
            case .requireAuth: "PGREQUIREAUTH"
            case .sslMinProtocolVersion: "PGSSLMINPROTOCOLVERSION"
            case .sslMaxProtocolVersion: "PGSSLMAXPROTOCOLVERSION"
            case .requirepeer: "PGREQUIREPEER"
            case .gssdelegation: "PGGSSDELEGATION"
            case .fallbackApplicationName, .sslpassword, .keepalives, .keepalivesIdle, .keepalivesInterval,
                .keepalivesCount, .tcpUserTimeout, .replication:
                nil
            }
        }
    }
}
