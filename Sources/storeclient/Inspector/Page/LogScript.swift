// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The action log: history entries, their changes, time travel.
  static let logScript = #"""
    // The action log: the host's history entries (PROTOCOL.md §8), newest first, following live.
    // A click on an entry shows the chosen scope's state at its revision (time travel); its ▸
    // shows the change it made.
    'use strict';

    const ActionLog = (() => {
      const maxRows = 1000;

      function element(tag, className, text) {
        const e = document.createElement(tag);
        if (className) e.className = className;
        if (text !== undefined) e.textContent = text;
        return e;
      }

      // `storeclient[1234] uid 1000`, `effect` or `host`, as `storeclient log` writes it.
      function originText(origin) {
        if (!origin || origin.kind !== 'client') return origin ? origin.kind : '?';
        const name = (origin.client || 'client').split('/')[0];
        return `${name}[${origin.pid}] uid ${origin.uid}`;
      }

      // An action as `storeclient log` names it: the case names of nested single-case objects
      // joined by dots (an unlabeled payload's `_0` skipped), then the rest as compact JSON —
      // `counter.factResponse "4 is…"` for {"counter":{"_0":{"factResponse":{"_0":"4 is…"}}}}.
      function actionText(action) {
        if (action === null || action === undefined) return '(not encodable)';
        const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
        const names = [];
        let current = action;
        while (isObject(current) && Object.keys(current).length === 1) {
          const key = Object.keys(current)[0];
          names.push(key);
          current = current[key];
          if (isObject(current) && Object.keys(current).length === 1 && '_0' in current) current = current._0;
        }
        let text = names.join('.');
        if (!(isObject(current) && Object.keys(current).length === 0)) {
          text += (text ? ' ' : '') + JSON.stringify(current);
        }
        return text.length <= 120 ? text : text.slice(0, 119) + '…';
      }

      class ActionLog {
        constructor(app) {
          this.app = app;
          this.list = document.getElementById('log');
          this.note = document.getElementById('log-note');
          this.more = document.getElementById('log-more');
          this.filter = document.getElementById('log-filter');
          this.entries = new Map();
          this.hostOldest = null;
          this.selected = null;
          this.filter.addEventListener('change', () => this.renderAll());
          this.more.addEventListener('click', () => this.loadOlder());
        }

        // Without the host's "history" feature there is nothing to list.
        setAvailable(available, message) {
          this.available = available;
          this.note.hidden = available;
          this.note.textContent = message || '';
          if (!available) {
            this.entries.clear();
            this.renderAll();
          }
        }

        // A fresh page of the most recent entries (on connecting, or when the host restarted).
        reset(page) {
          this.entries.clear();
          this.hostOldest = page.oldest;
          for (const entry of page.entries) this.entries.set(entry.rev, entry);
          this.renderAll();
        }

        add(entry) {
          if (this.entries.has(entry.rev)) return;
          this.entries.set(entry.rev, entry);
          if (!this.visible(entry)) return;
          const row = this.row(entry);
          row.classList.add('new');
          this.list.prepend(row);
          while (this.list.children.length > maxRows) this.list.lastElementChild.remove();
        }

        gap(from, to) {
          const row = element('li', 'gap', `entries after rev ${from} up to rev ${to} were skipped (the inspector fell behind)`);
          this.list.prepend(row);
        }

        visible(entry) {
          return !this.filter.checked || entry.scope === this.app.scope;
        }

        renderAll() {
          const revisions = [...this.entries.keys()].sort((a, b) => b - a);
          const rows = [];
          for (const rev of revisions) {
            const entry = this.entries.get(rev);
            if (this.visible(entry)) rows.push(this.row(entry));
            if (rows.length >= maxRows) break;
          }
          this.list.replaceChildren(...rows);
          const oldestShown = revisions.length ? revisions[revisions.length - 1] : null;
          this.more.hidden = !this.available || oldestShown === null || this.hostOldest === null ||
            oldestShown <= this.hostOldest;
        }

        row(entry) {
          const li = element('li');
          li.dataset.rev = entry.rev;
          if (this.selected === entry.rev) li.classList.add('selected');
          const line = element('div', 'line');
          const expand = element('button', 'expand', '▸');
          expand.type = 'button';
          expand.title = 'Show the change it made';
          expand.setAttribute('aria-label', `Show the change of rev ${entry.rev}`);
          expand.addEventListener('click', (event) => {
            event.stopPropagation();
            this.toggleChange(li, entry, expand);
          });
          line.append(
            expand,
            element('span', 'rev', `rev ${entry.rev}`),
            element('span', 'time', (entry.time || '').slice(11, 23)),
            element('span', 'origin', originText(entry.origin)),
            element('span', 'scope', entry.scope || '-'),
            element('span', 'action', actionText(entry.action)),
          );
          line.title = 'Show the state at this revision (read-only)';
          line.addEventListener('click', () => this.select(entry.rev));
          li.append(line);
          return li;
        }

        select(rev) {
          this.selected = rev;
          for (const li of this.list.querySelectorAll('li.selected')) li.classList.remove('selected');
          const li = this.list.querySelector(`li[data-rev="${rev}"]`);
          if (li) li.classList.add('selected');
          this.app.travelTo(rev);
        }

        deselect() {
          this.selected = null;
          for (const li of this.list.querySelectorAll('li.selected')) li.classList.remove('selected');
        }

        async toggleChange(li, entry, button) {
          const open = li.querySelector('.change');
          if (open) {
            open.remove();
            button.textContent = '▸';
            return;
          }
          button.textContent = '▾';
          const box = element('div', 'change', 'loading…');
          li.append(box);
          const scope = entry.scope || this.app.scope;
          if (!scope) {
            box.textContent = 'choose a scope to see what this action changed in it';
            return;
          }
          try {
            const change = await this.app.api(`/api/change?scope=${encodeURIComponent(scope)}&rev=${entry.rev}`);
            box.replaceChildren();
            if (change.ops.length === 0) {
              box.textContent = `no change in ${scope}`;
              return;
            }
            box.append(element('div', 'muted', `${scope}, rev ${entry.rev - 1} → ${entry.rev}:`));
            for (const op of change.ops) {
              const text = op.op === 'replace'
                ? `${op.path || '/'}: ${Tree.short(op.old)} → ${Tree.short(op.value)}`
                : op.op === 'add'
                  ? `${op.path}: + ${Tree.short(op.value)}`
                  : `${op.path}: - ${Tree.short(op.old)}`;
              box.append(element('div', 'op-' + op.op, text));
            }
          } catch (error) {
            box.textContent = error.message;
          }
        }

        async loadOlder() {
          const revisions = [...this.entries.keys()];
          if (revisions.length === 0) return;
          const oldest = Math.min(...revisions);
          const since = Math.max(0, oldest - 101);
          try {
            const page = await this.app.api(`/api/history?since=${since}&limit=100`);
            this.hostOldest = page.oldest;
            for (const entry of page.entries) if (entry.rev < oldest) this.entries.set(entry.rev, entry);
            this.renderAll();
          } catch (error) {
            this.note.hidden = false;
            this.note.textContent = error.message;
          }
        }
      }

      return { ActionLog, originText, actionText };
    })();
    """#
}
