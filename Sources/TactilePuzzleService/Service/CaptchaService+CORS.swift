import Foundation
import TactileCore
import TactileHTTP

/// The pages a request comes from (its `Origin`), the sites they belong to, and what pages of
/// other origins may read (CORS).
extension CaptchaService {
    /// The page's host name, from `Origin`, else (when there is no `Origin` at all)
    /// `Referer`. An opaque origin (`Origin: null`, a sandboxed frame or a file) has none,
    /// whatever its `Referer` says.
    func pageHostname(_ request: HTTPRequest) -> String? {
        let value = request.header("Origin") ?? request.header("Referer")
        guard let value, let url = URL(string: value), let host = url.host else { return nil }
        return host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
    }

    /// The first site whose host names hold the page's, if any.
    func siteOfOrigin(_ request: HTTPRequest) -> ServiceSite? {
        guard let host = pageHostname(request) else { return nil }
        return sites.sites.first { $0.hostnames.contains(host) }
    }

    /// Whether `site`'s puzzles may be shown on a page of `hostname`: one of its host names,
    /// or for the demo site, a page of this service itself.
    func allows(_ site: ServiceSite, _ hostname: String, _ request: HTTPRequest) -> Bool {
        if site.hostnames.contains(hostname) { return true }
        guard site.sitekey == configuration.demoSite?.sitekey, let host = request.header("Host"),
            let own = URL(string: "http://" + host)?.host
        else { return false }
        return (own.hasPrefix("[") ? String(own.dropFirst().dropLast()) : own) == hostname
    }

    /// Logs why a request for a puzzle was refused, naming the page's origin, so that an
    /// operator finds the setting that is wrong; counted by reason.
    func refuseChallenge(_ why: String, reason: String, request: HTTPRequest) {
        metrics.count("tactile_challenges_refused_total", label: ("reason", reason))
        let origin = request.header("Origin") ?? request.header("Referer").map { "referer " + $0 }
        log(
            "\(UTCTimestamp.string(clock())) refused a challenge from \(Self.quoted(origin ?? "no origin")): \(why)"
        )
    }

    /// `OPTIONS`: a page of a site's host names may send its `POST` with a JSON body.
    func preflight(_ request: HTTPRequest) -> HTTPResponse {
        guard siteOfOrigin(request) != nil, let origin = request.header("Origin") else {
            refuseChallenge(
                "the page's host name is not one of any site's (a cross-origin page must be "
                    + "listed in its site's hostnames)", reason: "hostname", request: request)
            return HTTPResponse(status: 403)
        }
        return HTTPResponse(status: 204).adding("Access-Control-Allow-Origin", origin)
            .adding("Vary", "Origin").adding("Access-Control-Allow-Methods", "GET, POST")
            .adding("Access-Control-Allow-Headers", "Content-Type")
            .adding("Access-Control-Max-Age", "600")
    }

    /// `response`, with what lets pages of other origins read it, as `pages` says.
    func shared(_ response: HTTPResponse, with pages: CrossOrigin, for request: HTTPRequest)
        -> HTTPResponse
    {
        switch pages {
        case .none:
            return response
        case .anyPage:
            guard response.status == 200 else { return response }
            return response.adding("Access-Control-Allow-Origin", "*")
        case .sitePages:
            guard (200..<300).contains(response.status) || response.status == 429,
                let origin = request.header("Origin"), siteOfOrigin(request) != nil
            else { return response }
            return response.adding("Access-Control-Allow-Origin", origin).adding("Vary", "Origin")
                .adding("Access-Control-Expose-Headers", "Retry-After, Date")
        }
    }
}

/// Which pages of other origins may read a route's answers (CORS), applied to every answer
/// of the route by ``CaptchaService/shared(_:with:for:)``.
enum CrossOrigin: Sendable {
    /// None: same-origin pages, and servers.
    case none
    /// A page of one of the sites' host names, named in `Access-Control-Allow-Origin`, for
    /// the answers it acts on: a success, a verdict, a wait (429, its `Retry-After` exposed).
    /// A request refused as such (a bad body, an unknown site, the store away) is not shared.
    case sitePages
    /// Any page, for a file found (200): `Access-Control-Allow-Origin: *`.
    case anyPage
}
