import Foundation
import Synchronization
import TactileHTTP

/// The browser widget and the demo pages, shipped with the module.
enum WebResources {
    /// A file of `Web/`, read once.
    static func file(_ name: String) -> [UInt8]? {
        files.withLock { files in
            if let bytes = files[name] { return bytes }
            // `widget/session.js` is `session.js` in `Web/widget`.
            let folder = name.split(separator: "/").dropLast().map { "/" + $0 }.joined()
            let base = name.split(separator: "/").last.map(String.init) ?? name
            guard
                let url = Bundle.module.url(
                    forResource: base, withExtension: nil, subdirectory: "Web" + folder),
                let data = try? Data(contentsOf: url)
            else { return nil }
            files[name] = Array(data)
            return Array(data)
        }
    }

    /// The files read so far, by name.
    private static let files = Mutex<[String: [UInt8]]>([:])

    /// `GET /widget.js`: an ES module any site may load.
    static func widget() -> HTTPResponse {
        guard let bytes = file("widget.js") else { return .text(500, "the widget is missing") }
        return HTTPResponse(status: 200, contentType: "text/javascript; charset=utf-8", body: bytes)
            .adding("Cache-Control", "max-age=300")
    }

    /// `GET /widget/NAME`: one of the modules `/widget.js` imports, or its style sheet. Only
    /// names of lower-case letters and dashes ending in `.js` or `.css` are looked up, so a path
    /// can name nothing else of the module's resources.
    static func widgetPart(_ name: String) -> HTTPResponse {
        let contentType: String
        let stem: Substring
        if name.hasSuffix(".js") {
            contentType = "text/javascript; charset=utf-8"
            stem = name.dropLast(3)
        } else if name.hasSuffix(".css") {
            contentType = "text/css; charset=utf-8"
            stem = name.dropLast(4)
        } else {
            return .text(404, "no such widget file")
        }
        guard !stem.isEmpty, stem.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || $0 == 45 }),
            let bytes = file("widget/" + name)
        else { return .text(404, "no such widget file") }
        return HTTPResponse(status: 200, contentType: contentType, body: bytes)
            .adding("Cache-Control", "max-age=300")
    }

    /// An HTML page of `Web/` with `{{NAME}}` placeholders filled in.
    static func page(_ name: String, replacing values: [String: String]) -> HTTPResponse {
        guard let bytes = file(name) else { return .text(500, "\(name) is missing") }
        var text = String(decoding: bytes, as: UTF8.self)
        for (key, value) in values {
            text = text.replacingOccurrences(of: "{{\(key)}}", with: value)
        }
        return HTTPResponse(
            status: 200, contentType: "text/html; charset=utf-8", body: Array(text.utf8)
        )
        .adding("Cache-Control", "no-store")
    }
}
