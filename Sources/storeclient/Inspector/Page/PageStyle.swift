// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The page's style sheet (light and dark).
  static let style = #"""
    :root {
      --bg: #f7f7f5; --panel: #ffffff; --text: #1d1d1f; --muted: #6e6e73; --line: #e2e2e0;
      --accent: #2f6fde; --ok: #1f8a4c; --bad: #c4372b; --warn: #b06d00; --flash: #ffe27a;
      --key: #7a3e9d; --string: #1f7a3a; --number: #1c5bb8; --literal: #b05a00;
      --in: #2f6fde; --out: #d9730d;
      font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
    }
    @media (prefers-color-scheme: dark) {
      :root {
        --bg: #161618; --panel: #1f1f22; --text: #e8e8ea; --muted: #9a9aa0; --line: #34343a;
        --accent: #6ea0ff; --ok: #4cc27f; --bad: #ff6b5e; --warn: #f0a93b; --flash: #6b5a10;
        --key: #d19df0; --string: #8bd49c; --number: #8ab4ff; --literal: #f0a060;
      }
    }
    * { box-sizing: border-box; }
    body { margin: 0; background: var(--bg); color: var(--text); min-height: 100vh;
      display: grid; grid-template-rows: auto 1fr auto; }
    header { display: flex; align-items: baseline; gap: 1rem; padding: .6rem 1rem;
      border-bottom: 1px solid var(--line); background: var(--panel); }
    h1 { font-size: 1.05rem; margin: 0; }
    h1 span { color: var(--accent); }
    h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted);
      margin: 0 0 .4rem; }
    #host-info { color: var(--muted); flex: 1; }
    .badge { border-radius: 999px; padding: .1rem .6rem; font-size: .8rem; border: 1px solid; }
    .badge.connected { color: var(--ok); }
    .badge.connecting { color: var(--warn); }
    .badge.disconnected { color: var(--bad); }
    main { display: grid; grid-template-columns: minmax(11rem, 14rem) minmax(0, 1fr) minmax(0, 1.25fr);
      gap: 1px; background: var(--line); min-height: 0; }
    main > * { background: var(--panel); padding: .8rem 1rem; overflow: auto; min-height: 0; }
    .panel-head { display: flex; align-items: baseline; gap: .8rem; }
    .panel-head h2 { margin-right: auto; }
    .muted { color: var(--muted); font-weight: normal; }
    .note { color: var(--muted); font-style: italic; }
    .banner { background: color-mix(in srgb, var(--accent) 12%, transparent); border-left: 3px solid var(--accent);
      padding: .3rem .6rem; margin: .3rem 0; }
    button { font: inherit; border: 1px solid var(--line); background: var(--bg); color: var(--text);
      border-radius: 6px; padding: .2rem .7rem; cursor: pointer; }
    button:hover { border-color: var(--accent); }
    button:disabled { opacity: .5; cursor: default; }
    input, textarea { font: inherit; color: var(--text); background: var(--bg);
      border: 1px solid var(--line); border-radius: 6px; padding: .25rem .45rem; }
    textarea { width: 100%; font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: .85rem; }
    #scope-list { list-style: none; margin: 0 0 .8rem; padding: 0; }
    #scope-list li { margin: 1px 0; }
    #scope-list button { display: block; width: 100%; text-align: left; border: 0; background: none;
      padding: .2rem .4rem; border-radius: 5px; font-family: ui-monospace, Menlo, monospace; font-size: .85rem;
      overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
    #scope-list button[aria-current="true"] { background: color-mix(in srgb, var(--accent) 18%, transparent); }
    #scope-list .pattern { color: var(--muted); padding: .2rem .4rem; font-family: ui-monospace, Menlo, monospace;
      font-size: .85rem; }
    #scope-list ul { list-style: none; padding-left: .8rem; margin: 0; }
    #scope-list .ro { color: var(--muted); font-size: .7rem; margin-left: .3rem; }
    #scope-form { display: flex; gap: .3rem; }
    #scope-form input { flex: 1; min-width: 0; }
    .tree { font-family: ui-monospace, "SF Mono", Menlo, monospace; font-size: .85rem; margin: .4rem 0 1rem; }
    .tree details { margin-left: 1.1rem; }
    .tree summary { cursor: pointer; margin-left: -1.1rem; list-style: none; }
    .tree summary::before { content: "▸"; display: inline-block; width: 1.1rem; color: var(--muted); }
    .tree details[open] > summary::before { content: "▾"; }
    .tree .leaf { margin-left: 0; padding-left: 0; }
    .tree .key { color: var(--key); }
    .tree .key::after { content: ": "; color: var(--muted); }
    .tree .string { color: var(--string); }
    .tree .number { color: var(--number); }
    .tree .boolean, .tree .null { color: var(--literal); }
    .tree .count { color: var(--muted); }
    .tree details[open] > summary .preview { display: none; }
    .tree.read-only { opacity: .92; background: repeating-linear-gradient(135deg, transparent 0 12px,
      color-mix(in srgb, var(--accent) 5%, transparent) 12px 24px); }
    .flash { animation: flash 1.4s ease-out; border-radius: 3px; }
    @keyframes flash { from { background: var(--flash); } to { background: transparent; } }
    #dispatch .row { display: flex; gap: .6rem; align-items: center; margin-top: .3rem; }
    #dispatch-result.ok { color: var(--ok); }
    #dispatch-result.error { color: var(--bad); }
    #log { list-style: none; margin: 0; padding: 0; font-family: ui-monospace, Menlo, monospace; font-size: .8rem; }
    #log li { border-bottom: 1px solid var(--line); padding: .2rem 0; }
    #log .line { display: flex; gap: .6rem; align-items: baseline; cursor: pointer; white-space: nowrap; }
    #log .line:hover { background: color-mix(in srgb, var(--accent) 8%, transparent); }
    #log li.selected > .line { background: color-mix(in srgb, var(--accent) 18%, transparent); }
    #log .expand { border: 0; background: none; padding: 0 .2rem; color: var(--muted); }
    #log .rev { color: var(--muted); min-width: 4.5rem; }
    #log .time { color: var(--muted); }
    #log .origin { color: var(--key); }
    #log .scope { color: var(--number); }
    #log .action { overflow: hidden; text-overflow: ellipsis; }
    #log .change { margin: .2rem 0 .3rem 1.6rem; white-space: pre-wrap; color: var(--text); }
    #log .change .op-add { color: var(--ok); }
    #log .change .op-remove { color: var(--bad); }
    #log li.gap { color: var(--warn); font-style: italic; }
    #log li.new { animation: flash 1.4s ease-out; }
    #log-more { margin-top: .5rem; }
    #charts { display: flex; gap: 1.5rem; padding: .6rem 1rem; border-top: 1px solid var(--line);
      background: var(--panel); flex-wrap: wrap; }
    #charts figure { margin: 0; }
    #charts figcaption { font-size: .8rem; color: var(--muted); }
    #charts figcaption b { color: var(--text); font-variant-numeric: tabular-nums; }
    #charts .in { color: var(--in); }
    #charts .out { color: var(--out); }
    #charts canvas { display: block; width: 320px; height: 64px; }
    body.host-away #state, body.host-away #charts canvas { opacity: .45; }
    """#
}
