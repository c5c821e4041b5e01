// `GET /`: the search page, one HTML document with its script and style inline, nothing from the
// internet. A per-response nonce in the Content-Security-Policy lets only this script and style
// run. The field is a WAI-ARIA combobox over a listbox of results grouped by category.
import Foundation
import WebServer

/// The search page.
enum SearchPage {
  /// The page, its script in place.
  static let document = html.replacingOccurrences(of: "SCRIPT", with: script)

  /// The page with a fresh nonce, and the headers that confine it.
  static func response() -> HTTPResponse {
    var generator = SystemRandomNumberGenerator()
    let nonce = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    var headers = HTTPHeaders()
    headers.set("Content-Type", "text/html; charset=utf-8")
    headers.set(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'nonce-\(nonce)'; connect-src 'self'; "
        + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
    headers.set("X-Content-Type-Options", "nosniff")
    headers.set("Referrer-Policy", "no-referrer")
    headers.set("Cache-Control", "no-store")
    return HTTPResponse(
      status: 200, headers: headers, body: Array(document.replacingOccurrences(of: "NONCE", with: nonce).utf8))
  }

  /// The document; `NONCE` stands for the response's nonce, and `SCRIPT` for ``script``.
  static let html = """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>stream-search</title>
    <link rel="icon" href="data:,">
    <style nonce="NONCE">
    body { font: 16px/1.4 system-ui, sans-serif; margin: 2rem auto; max-width: 40rem; padding: 0 1rem; color: #202124; }
    label { display: block; margin-bottom: .3rem; font-weight: 600; }
    input { width: 100%; font-size: 1.2rem; padding: .5rem; box-sizing: border-box; border: 1px solid #888;
      border-radius: 6px; }
    input:focus { outline: 3px solid #1a73e8; outline-offset: 1px; }
    #status { min-height: 1.4em; margin: .3rem 0; color: #555; font-size: .9rem; }
    #status.busy::before { content: ""; display: inline-block; width: .6em; height: .6em; margin-right: .4em;
      border-radius: 50%; background: #1a73e8; animation: pulse 1s ease-in-out infinite; }
    #status.error { color: #b00020; }
    @keyframes pulse { 50% { opacity: .2; } }
    /* Dimmed only when an answer is slow to come: a quick one replaces the list without a blink. */
    [role=listbox] { list-style: none; padding: 0; margin: 0; transition: opacity .15s; }
    [role=listbox].stale { opacity: .5; transition: opacity .2s .25s; }
    [role=group], [role=group] ul { list-style: none; padding: 0; margin: 0; }
    .group { font-weight: 600; margin: .8rem 0 .2rem; color: #444; font-size: .85rem; text-transform: uppercase;
      letter-spacing: .04em; }
    [role=option] { padding: .35rem .5rem; border-radius: 4px; cursor: pointer; }
    [role=option]:hover { background: #e8f0fe; }
    [role=option][aria-selected=true] { background: #1a73e8; color: #fff; }
    .meta { opacity: .75; font-size: .85rem; margin-left: .4em; }
    #picked { margin-top: 1rem; font-weight: 600; }
    @media (prefers-reduced-motion: reduce) { * { transition: none !important; animation: none !important; } }
    </style>
    </head>
    <body>
    <main>
    <label for="q">Search music, movies and podcasts</label>
    <input id="q" type="text" role="combobox" aria-autocomplete="list" aria-expanded="false"
      aria-controls="results" aria-describedby="status" autocomplete="off" spellcheck="false" autofocus>
    <div id="status" role="status" aria-live="polite"></div>
    <ul id="results" role="listbox" aria-label="Results" data-term=""></ul>
    <div id="picked" aria-live="polite"></div>
    </main>
    <script nonce="NONCE">
    SCRIPT
    </script>
    </body>
    </html>
    """
}
