import Foundation
import TactileCairo
import TactileCore
import TactileHTTP
import TactilePuzzleImaging
import TactilePuzzleService
import TactilePuzzleStores
import TactilePuzzleVerifier

/// `tactile puzzle serve`: wires the HTTP server, the captcha service and a store together,
/// and runs until interrupted.
enum PuzzleServeCommand {
    static func serve(_ parsed: ArgumentParser.Parsed, output: CommandOutput)
        throws(CommandFailure)
    {
        // The signals are waited for below; blocked from the start, so that a SIGHUP while
        // the store and the sites load is not the default action (the end of the process).
        // The server's threads inherit the mask.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let (host, port) = try listenAddress(parsed.option("listen") ?? "127.0.0.1:8080")
        let (metricsHost, metricsPort) = try listenAddress(
            parsed.option("metrics-listen") ?? "127.0.0.1:0", option: "metrics-listen")
        let testing = try ServeTestOptions(parsed)
        let policy = testing.applied(to: VerifierPolicy())
        let backend: any VerifierBackend
        let storeName: String
        switch parsed.option("store") ?? "memory" {
        case "memory":
            backend = MemoryBackend(policy: policy)
            storeName = "memory"
        case let value where value.hasPrefix("redis://") || value.hasPrefix("redis-sentinel://"):
            let redis: RedisBackend
            do {
                redis = try RedisBackend(
                    url: value, policy: policy,
                    log: { line in
                        let stamp = UTCTimestamp.string(Date().timeIntervalSince1970)
                        FileHandle.standardError.write(Data("\(stamp) \(line)\n".utf8))
                    })
            } catch {
                throw .usage(error.description)
            }
            // A Redis that evicts keys when full could let a spent token pass again. (One that
            // does not answer yet is checked by /healthz, which fails until it does.)
            if let risk = try? redis.evictionRisk() {
                throw CommandFailure(.damagedStore, "--store \(value): \(risk)")
            }
            backend = redis
            storeName = value
        case let directory:
            guard !directory.isEmpty else { throw .usage("--store needs memory or a directory") }
            do { backend = try DirectoryBackend(directory: directory, policy: policy) } catch {
                throw CommandFailure(error.isBadPath ? .usage : .damagedStore, error.message)
            }
            storeName = directory
        }
        var sites: [ServiceSite]
        var development = false
        if let path = parsed.option("sites") {
            do { sites = try ServiceSite.load(path: path) } catch {
                throw .usage(error.description)
            }
        } else {
            sites = [ServiceSite.development()]
            development = true
        }
        let pictures = try loadPictures(parsed.option("pictures"))
        let proxies = Set(
            (parsed.option("trusted-proxy") ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            })
        var servicePolicy = policy
        if testing.skipsDragModel { servicePolicy.trajectory.maximumScriptScore = 1 }
        var options = PuzzleOptions()
        if let axis = testing.axis { options.axis = axis }
        // /demo on the development site, or with --demo on a site of its own (never a
        // configured site, whose tokens it would spend without its secret).
        let demoSite: ServiceSite? =
            development ? sites.first : parsed.option("demo") != nil ? ServiceSite.demo() : nil
        if development { sites = [] }
        let service = CaptchaService(
            configuration: .init(
                sites: sites, policy: servicePolicy,
                options: options, pictures: pictures,
                trustedProxies: proxies, revealsAnswers: testing.revealsAnswers,
                demoSite: demoSite),
            backend: backend,
            log: { line in FileHandle.standardError.write(Data((line + "\n").utf8)) })

        raiseOpenFileLimit()
        let server: HTTPServer
        do {
            // A worker waiting on Redis holds its thread: give it a few more of them than
            // cores, so the cores stay busy meanwhile (Redis itself and the network thread
            // take some). Many more only makes workers on puzzles crowd each other out.
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let threads = backend is RedisBackend ? 4 * cores : cores
            // The load balancers' connections are every client's: the per-client limits
            // apply behind them, in the service, to the address they forward.
            var limits = ConnectionGuard.Limits()
            limits.unlimitedAddresses = proxies
            server = try HTTPServer(
                configuration: .init(
                    host: host, port: port, threads: threads, limits: limits,
                    messages: { service.logServerMessage($0) })
            ) {
                service.handle($0)
            }
        } catch {
            throw .usage("--listen \(host):\(port): \(error)")
        }
        // The metrics (which rule refused what) on an address of their own, loopback unless
        // said otherwise: never on the public listener, where they would coach a script.
        let metricsServer: HTTPServer
        do {
            metricsServer = try HTTPServer(
                configuration: .init(
                    host: metricsHost, port: metricsPort, threads: 1,
                    messages: { service.logServerMessage($0) })
            ) {
                service.handleMetrics($0)
            }
        } catch {
            server.stop()
            throw .usage("--metrics-listen \(metricsHost):\(metricsPort): \(error)")
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        let metricsShown = metricsHost.contains(":") ? "[\(metricsHost)]" : metricsHost
        if development, let site = demoSite {
            output.line("development site: sitekey \(site.sitekey) secret \(site.secret)")
        }
        for warning in testing.warnings { output.line(warning) }
        output.line(
            "store: \(storeName); pictures: \(pictures.isEmpty ? "drawn" : "\(pictures.count) photos")"
        )
        output.line("metrics on http://\(metricsShown):\(metricsServer.port)/metrics")
        output.line(
            "listening on http://\(shown):\(server.port)\(demoSite == nil ? "" : " (open /demo)")")
        try output.checkWritable()
        var received: Int32 = 0
        while sigwait(&signals, &received) == 0, received == SIGHUP {
            reloadSites(parsed.option("sites"), into: service)
        }
        server.stop()
        metricsServer.stop()
        output.line("stopped")
    }

    /// Reads the sites file again and serves its sites from now on; a file that cannot be
    /// used leaves the sites as they were. Either way the log says what happened.
    static func reloadSites(_ path: String?, into service: CaptchaService) {
        let stamp = UTCTimestamp.string(Date().timeIntervalSince1970)
        let line: String
        if let path {
            do {
                let sites = try ServiceSite.load(path: path)
                service.replaceSites(sites)
                line = "sites reloaded on SIGHUP: \(sites.count) from \(path)"
            } catch {
                line = "sites NOT reloaded on SIGHUP, the sites in use stay: \(error)"
            }
        } else {
            line = "SIGHUP: no --sites file to read again; the development site stays"
        }
        FileHandle.standardError.write(Data("\(stamp) \(line)\n".utf8))
    }

    /// Lets the process open as many files as it is allowed to (its hard limit, up to
    /// 65,536): a soft limit of 1,024 would run out below the server's connection limit.
    static func raiseOpenFileLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        let wanted = min(limit.rlim_max, 65536)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// `HOST:PORT`, with IPv6 in brackets.
    static func listenAddress(_ text: String, option: String = "listen") throws(CommandFailure)
        -> (String, Int)
    {
        let accepted = "--\(option) must be HOST:PORT (such as 127.0.0.1:8080 or [::1]:8080)"
        guard let colon = text.lastIndex(of: ":") else {
            throw .usage("\(accepted), got \(TerminalText.quoted(text))")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let port = try ValueParser.integer(
            String(text[text.index(after: colon)...]), name: "the --\(option) port", in: 0...65535)
        guard !host.isEmpty else { throw .usage("\(accepted), got \(TerminalText.quoted(text))") }
        return (host, port)
    }

    /// Up to 64 photos from a folder, each kept at the size every puzzle's variation of it
    /// needs (`PictureVariation`).
    static func loadPictures(_ directory: String?) throws(CommandFailure) -> [Bitmap] {
        guard let directory else { return [] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            throw .usage("--pictures \(TerminalText.quoted(directory)): cannot list it")
        }
        let photos = names.filter {
            ["jpg", "jpeg", "png"].contains(($0 as NSString).pathExtension.lowercased())
        }
        guard !photos.isEmpty else {
            throw .usage(
                "--pictures \(TerminalText.quoted(directory)): no .jpg, .jpeg or .png files")
        }
        var pictures: [Bitmap] = []
        for name in photos.prefix(64) {
            do {
                pictures.append(
                    PictureVariation.kept(
                        try ImageLoader.load(path: directory + "/" + name), width: 640,
                        height: 360))
            } catch {
                throw .usage("--pictures: \(error)")
            }
        }
        return pictures
    }
}
