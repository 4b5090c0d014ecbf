// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The page itself: the panels the scripts fill in.
  static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="no-referrer">
    <title>storeclient inspect</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/inspector.css">
    <script src="/tree.js" defer></script>
    <script src="/charts.js" defer></script>
    <script src="/log.js" defer></script>
    <script src="/inspector.js" defer></script>
    </head>
    <body>
    <header>
      <h1>storeclient <span>inspect</span></h1>
      <span id="host-info"></span>
      <span id="connection" class="badge connecting" role="status">connecting…</span>
    </header>
    <main>
      <nav id="scopes-panel" aria-label="Scopes">
        <h2>Scopes</h2>
        <ul id="scope-list"></ul>
        <form id="scope-form" autocomplete="off">
          <input id="scope-input" placeholder="any scope, e.g. todos/…" aria-label="Scope">
          <button type="submit">Open</button>
        </form>
      </nav>
      <section id="state-panel" aria-label="State">
        <div class="panel-head">
          <h2 id="state-title">State</h2>
          <span id="state-rev" class="muted"></span>
          <button id="back-to-live" type="button" hidden>Back to live</button>
        </div>
        <p id="travel-banner" class="banner" hidden></p>
        <p id="state-note" class="note" hidden></p>
        <div id="state" class="tree"></div>
        <form id="dispatch" autocomplete="off">
          <h2>Dispatch <span id="dispatch-scope" class="muted"></span></h2>
          <select id="action-forms" aria-label="The actions this scope takes" hidden></select>
          <textarea id="action" spellcheck="false" rows="3" placeholder='{"incrementButtonTapped":{}}' aria-label="Action JSON"></textarea>
          <div class="row">
            <button id="send" type="submit">Send</button>
            <output id="dispatch-result"></output>
          </div>
        </form>
      </section>
      <section id="log-panel" aria-label="Actions">
        <div class="panel-head">
          <h2>Actions</h2>
          <label class="muted"><input type="checkbox" id="log-filter"> only this scope</label>
        </div>
        <p id="log-note" class="note" hidden></p>
        <ol id="log"></ol>
        <button id="log-more" type="button" hidden>Older entries</button>
      </section>
    </main>
    <footer id="charts">
      <figure><figcaption>actions/s <b id="value-actions"></b></figcaption><canvas id="chart-actions" width="320" height="64"></canvas></figure>
      <figure><figcaption>connections <b id="value-connections"></b></figcaption><canvas id="chart-connections" width="320" height="64"></canvas></figure>
      <figure><figcaption>bytes/s <span class="in">in</span> <b id="value-bytes-in"></b> · <span class="out">out</span> <b id="value-bytes-out"></b></figcaption><canvas id="chart-bytes" width="320" height="64"></canvas></figure>
      <figure><figcaption>memory <span class="in">RSS</span> <b id="value-memory-resident"></b> · <span class="out">kept</span> <b id="value-memory-kept"></b></figcaption><canvas id="chart-memory" width="320" height="64"></canvas></figure>
    </footer>
    </body>
    </html>
    """#
}
