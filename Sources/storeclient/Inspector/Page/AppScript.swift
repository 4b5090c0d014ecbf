// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The page's main script: scopes, live state, dispatch, the event stream.
  static let appScript = #"""
    // The inspector page: scopes, the live state of one, time travel, dispatch and the host's
    // figures, kept current by one Server-Sent Events stream (/api/events) that reconnects by
    // itself. Everything it asks of the host goes through the inspector's JSON API (/api/…).
    'use strict';

    (() => {
      // The token came in the address; the cookie set with this page carries it from now on, so
      // it need not stay in the address bar (or in a bookmark, or a screenshot).
      if (new URLSearchParams(location.search).has('token')) {
        history.replaceState(null, '', location.pathname + location.hash);
      }

      const $ = (id) => document.getElementById(id);

      const app = {
        scope: null,
        scopes: [],
        writable: false,
        live: undefined, // the chosen scope's live state, and its revision
        rev: null,
        travel: null, // { rev, state } while looking at a past revision
        collapsed: new Set(),
        hostConnected: false,
        api,
        travelTo,
      };
      const charts = new Charts.HostCharts();
      const log = new ActionLog.ActionLog(app);

      async function api(path, options) {
        const response = await fetch(path, { cache: 'no-store', ...options });
        let body = null;
        try {
          body = await response.json();
        } catch (_) {
          body = null;
        }
        if (!response.ok) {
          const message = body && body.error
            ? `${body.error.code}: ${body.error.message}`
            : `${response.status} ${response.statusText}`;
          throw new Error(message);
        }
        return body;
      }

      // MARK: - Scopes

      // The list as last drawn (JSON), so that an unchanged list is not drawn again.
      let shownScopes = null;

      async function loadScopes() {
        try {
          const result = await api('/api/scopes');
          app.scopes = result.scopes;
          if (JSON.stringify(app.scopes) !== shownScopes) renderScopes();
          if (app.scope === null) {
            const first = app.scopes.find((s) => !s.pattern.includes('{') && s.pattern !== '_host');
            if (first) choose(first.pattern);
          } else {
            updateWritable();
          }
        } catch (error) {
          shownScopes = null;
          $('scope-list').replaceChildren(note(error.message));
        }
      }

      function note(text) {
        const li = document.createElement('li');
        li.className = 'note';
        li.textContent = text;
        return li;
      }

      function scopeButton(name, label, writable) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = label;
        button.title = name;
        button.dataset.scope = name;
        if (name === app.scope) button.setAttribute('aria-current', 'true');
        button.addEventListener('click', () => choose(name));
        if (!writable) {
          const ro = document.createElement('span');
          ro.className = 'ro';
          ro.textContent = 'read-only';
          button.append(ro);
        }
        return button;
      }

      function renderScopes() {
        const items = app.scopes.map((scope) => {
          const li = document.createElement('li');
          if (scope.description) li.title = scope.description;
          if (!scope.pattern.includes('{')) {
            li.append(scopeButton(scope.pattern, scope.pattern, scope.writable));
            return li;
          }
          const label = document.createElement('div');
          label.className = 'pattern';
          label.textContent = scope.pattern;
          li.append(label);
          const ids = document.createElement('ul');
          for (const id of scope.ids || []) {
            const name = scope.pattern.replace('{id}', id);
            const item = document.createElement('li');
            item.append(scopeButton(name, name.slice(scope.pattern.indexOf('{id}')), scope.writable));
            ids.append(item);
          }
          if (!scope.ids) ids.append(note(scope.idsNote || 'type an id below'));
          li.append(ids);
          return li;
        });
        $('scope-list').replaceChildren(...items);
        shownScopes = JSON.stringify(app.scopes);
      }

      // The ids of collection scopes change with the state (a to-do added, a product removed):
      // after actions, the list is read again, at most once a second, and drawn again only when
      // it changed (so that a busy host costs one read a second, and the list does not flicker).
      let scopesTimer = null;
      function refreshScopesSoon() {
        if (scopesTimer !== null || !app.hostConnected) return;
        if (!app.scopes.some((s) => s.pattern.includes('{'))) return;
        scopesTimer = setTimeout(() => {
          scopesTimer = null;
          loadScopes();
        }, 1000);
      }

      // The entry of the scope list that `scope` is, or matches.
      function scopeInfo(scope) {
        return app.scopes.find((s) => {
          const pattern = s.pattern.split('/');
          const parts = scope.split('/');
          return pattern.length === parts.length && pattern.every((p, i) => p === '{id}' || p === parts[i]);
        });
      }

      function updateWritable() {
        const info = app.scope ? scopeInfo(app.scope) : null;
        app.writable = !!(info && info.writable);
        $('send').disabled = !app.writable;
        $('dispatch-scope').textContent = app.scope
          ? (app.writable ? `to ${app.scope}` : `${app.scope} is read-only`)
          : '';
        // The actions the scope takes, each with the JSON to send: choosing one fills the box.
        const forms = $('action-forms');
        const offered = app.writable && info && Array.isArray(info.forms) ? info.forms : [];
        forms.replaceChildren();
        forms.hidden = offered.length === 0;
        if (offered.length > 0) {
          const prompt = document.createElement('option');
          prompt.value = '';
          prompt.textContent = `${offered.length} action${offered.length === 1 ? '' : 's'} ${app.scope} takes…`;
          forms.append(prompt);
          for (const form of offered) {
            const option = document.createElement('option');
            option.value = form.template;
            option.textContent = form.name;
            forms.append(option);
          }
        }
      }

      function choose(scope) {
        if (!scope) return;
        app.scope = scope;
        app.live = undefined;
        app.rev = null;
        app.travel = null;
        app.collapsed.clear();
        history.replaceState(null, '', '#scope=' + encodeURIComponent(scope));
        for (const button of document.querySelectorAll('#scope-list button')) {
          if (button.dataset.scope === scope) button.setAttribute('aria-current', 'true');
          else button.removeAttribute('aria-current');
        }
        log.deselect();
        log.renderAll();
        updateWritable();
        renderState();
        connect();
      }

      // MARK: - State

      function showNote(text) {
        $('state-note').hidden = !text;
        $('state-note').textContent = text || '';
      }

      function renderState(flash) {
        $('state-title').textContent = app.scope || 'State';
        const tree = $('state');
        if (app.travel) {
          $('state-rev').textContent = app.rev === null ? '' : `live at rev ${app.rev}`;
          $('travel-banner').hidden = false;
          $('travel-banner').textContent =
            `${app.scope} as it was at rev ${app.travel.rev} (read-only)`;
          $('back-to-live').hidden = false;
          tree.classList.add('read-only');
          Tree.render(tree, app.travel.state, { collapsed: app.collapsed });
          return;
        }
        $('state-rev').textContent = app.rev === null ? '' : `rev ${app.rev} · live`;
        $('travel-banner').hidden = true;
        $('back-to-live').hidden = true;
        tree.classList.remove('read-only');
        Tree.render(tree, app.live, { collapsed: app.collapsed, flash });
      }

      async function travelTo(rev) {
        if (!app.scope) return;
        const scope = app.scope;
        try {
          const snapshot = await api(`/api/state?scope=${encodeURIComponent(scope)}&at=${rev}`);
          if (scope !== app.scope) return;
          app.travel = { rev, state: snapshot.state };
          showNote('');
        } catch (error) {
          app.travel = { rev, state: undefined };
          showNote(`Cannot show ${scope} at rev ${rev}: ${error.message}`);
        }
        renderState();
      }

      $('back-to-live').addEventListener('click', () => {
        app.travel = null;
        log.deselect();
        showNote('');
        renderState();
      });

      $('scope-form').addEventListener('submit', (event) => {
        event.preventDefault();
        const value = $('scope-input').value.trim();
        if (value) choose(value);
      });

      // MARK: - Dispatch

      $('dispatch').addEventListener('submit', async (event) => {
        event.preventDefault();
        const result = $('dispatch-result');
        result.className = '';
        let action;
        try {
          action = JSON.parse($('action').value);
        } catch (error) {
          result.className = 'error';
          result.textContent = `not JSON: ${error.message}`;
          return;
        }
        result.textContent = 'sending…';
        try {
          const ack = await api('/api/send', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ scope: app.scope, action }),
          });
          result.className = 'ok';
          result.textContent = `acknowledged: rev ${ack.rev}`;
        } catch (error) {
          result.className = 'error';
          result.textContent = error.message;
        }
      });

      $('action-forms').addEventListener('change', () => {
        const template = $('action-forms').value;
        if (!template) return;
        $('action').value = template;
        $('action').focus();
        // A placeholder such as "<String>" is selected, ready to be typed over.
        const start = template.indexOf('"<');
        if (start >= 0) $('action').setSelectionRange(start, template.indexOf('>"', start) + 2);
        $('action-forms').value = '';
      });

      $('action').addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          $('dispatch').requestSubmit();
        }
      });

      // MARK: - Live updates

      let source = null;
      let retryDelay = 1000;
      let retryTimer = null;

      function setConnection(kind, text) {
        const badge = $('connection');
        badge.className = 'badge ' + kind;
        badge.textContent = text;
        document.body.classList.toggle('host-away', kind !== 'connected');
      }

      function connect() {
        if (source) source.close();
        clearTimeout(retryTimer);
        const query = app.scope ? '?scope=' + encodeURIComponent(app.scope) : '';
        const stream = new EventSource('/api/events' + query);
        source = stream;
        const on = (name, handler) => stream.addEventListener(name, (event) => {
          if (stream === source) handler(JSON.parse(event.data));
        });
        stream.addEventListener('open', () => {
          retryDelay = 1000;
        });
        stream.addEventListener('error', () => {
          if (stream !== source) return;
          if (stream.readyState === EventSource.CLOSED) {
            // Refused or gone: the browser gave up, so try again ourselves, less and less
            // often — and say so when the refusal is for the token (an inspector restarted
            // with a new one: only its new URL opens the page).
            setConnection('disconnected', 'inspector unreachable — retrying');
            fetch('/api/scopes', { cache: 'no-store' }).then((response) => {
              if (response.status === 403 && stream === source) {
                setConnection('disconnected', 'refused: open the URL the inspector printed');
              }
            }, () => {});
            retryTimer = setTimeout(connect, retryDelay);
            retryDelay = Math.min(retryDelay * 2, 10000);
          } else {
            setConnection('connecting', 'inspector unreachable — reconnecting…');
          }
        });
        on('status', onStatus);
        on('snapshot', (data) => {
          if (data.scope !== app.scope) return;
          app.live = data.state;
          app.rev = data.rev;
          showNote('');
          renderState();
        });
        on('patch', (data) => {
          if (data.scope !== app.scope) return;
          if (data.base !== app.rev) return connect(); // out of step: start again from a snapshot
          try {
            app.live = Tree.applyPatch(app.live, data.ops);
          } catch (_) {
            return connect();
          }
          app.rev = data.rev;
          refreshScopesSoon();
          if (app.travel) {
            $('state-rev').textContent = `live at rev ${app.rev}`;
          } else {
            renderState(Tree.changedPaths(data.ops));
          }
        });
        on('unavailable', (data) => {
          if (data.scope !== app.scope) return;
          app.live = undefined;
          app.rev = null;
          renderState();
          showNote(`${data.scope}: ${data.message} (${data.code})`);
        });
        on('log', (data) => {
          log.setAvailable(data.available, data.message);
          if (data.available) log.reset(data);
        });
        on('entry', (entry) => {
          log.add(entry);
          refreshScopesSoon();
        });
        on('gap', (data) => log.gap(data.from, data.to));
        on('figures-history', (data) => charts.reset(data.samples));
        on('figures', (figures) => charts.add(figures));
      }

      function onStatus(status) {
        const wasConnected = app.hostConnected;
        app.hostConnected = status.connected;
        if (status.connected) {
          setConnection('connected', 'connected');
          $('host-info').textContent =
            `${status.app} · ${status.host} · session ${status.session} · ${status.socket}`;
          if (!wasConnected) loadScopes();
        } else {
          setConnection('disconnected', `host unreachable: ${status.message} — reconnecting`);
          $('host-info').textContent = status.socket;
        }
      }

      const hash = new URLSearchParams(location.hash.slice(1));
      if (hash.get('scope')) {
        choose(hash.get('scope'));
      } else {
        connect();
      }
    })();
    """#
}
