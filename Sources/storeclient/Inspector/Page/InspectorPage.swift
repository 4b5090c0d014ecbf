/// The inspector's web page: plain HTML, CSS and JavaScript kept in this folder as Swift
/// strings, so the binary carries it whole — no build step, no CDN, it works offline.
///
/// ```
///  /               PageHTML.swift      the panels
///  /inspector.css  PageStyle.swift     light and dark
///  /tree.js        TreeScript.swift    state tree, JSON Pointer, RFC 6902 patches
///  /charts.js      ChartsScript.swift  `_host` charts on a canvas
///  /log.js         LogScript.swift     action log, changes, time travel
///  /inspector.js   AppScript.swift     scopes, live state, dispatch, the event stream
/// ```
enum InspectorPage {
  /// One file of the page.
  struct Resource: Sendable {
    /// Its `Content-Type`.
    var contentType: String
    /// Its bytes.
    var body: [UInt8]
  }

  /// The page's files by path.
  static let resources: [String: Resource] = [
    "/": Resource(contentType: "text/html; charset=utf-8", body: Array(html.utf8)),
    "/inspector.css": Resource(contentType: "text/css; charset=utf-8", body: Array(style.utf8)),
    "/tree.js": Resource(
      contentType: "text/javascript; charset=utf-8", body: Array(treeScript.utf8)),
    "/charts.js": Resource(
      contentType: "text/javascript; charset=utf-8", body: Array(chartsScript.utf8)),
    "/log.js": Resource(contentType: "text/javascript; charset=utf-8", body: Array(logScript.utf8)),
    "/inspector.js": Resource(
      contentType: "text/javascript; charset=utf-8", body: Array(appScript.utf8)),
  ]

  /// What the page may load and connect to: itself only. No inline script runs, no other site
  /// is reached, and no other page may frame it.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}
