// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The state tree: rendering, JSON Pointers and RFC 6902 patches, in JavaScript.
  static let treeScript = #"""
    // The state tree: JSON rendered as nested <details>, JSON Pointer helpers, and RFC 6902 patches
    // applied in place. Shared by inspector.js and log.js through the global `Tree`.
    'use strict';

    const Tree = (() => {
      function escapeToken(key) {
        return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
      }

      function pointer(parent, key) {
        return parent + '/' + escapeToken(key);
      }

      function tokens(path) {
        if (path === '') return [];
        if (path[0] !== '/') throw new Error('not a JSON Pointer: ' + path);
        return path.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
      }

      function child(container, token) {
        if (Array.isArray(container)) {
          if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error('bad array index ' + token);
          return container[Number(token)];
        }
        if (container !== null && typeof container === 'object') return container[token];
        return undefined;
      }

      // Applies RFC 6902 add/remove/replace operations; returns the new document (the old one may
      // have been changed in place). Throws when an operation does not fit.
      function applyPatch(document, ops) {
        let root = document;
        for (const op of ops) {
          const path = tokens(op.path);
          if (path.length === 0) {
            if (op.op === 'remove') throw new Error('cannot remove the whole document');
            root = op.value;
            continue;
          }
          let parent = root;
          for (const token of path.slice(0, -1)) {
            parent = child(parent, token);
            if (parent === undefined) throw new Error('no such path ' + op.path);
          }
          const last = path[path.length - 1];
          if (Array.isArray(parent)) {
            const index = last === '-' ? parent.length : Number(last);
            if (!Number.isInteger(index) || index < 0 || index > parent.length) {
              throw new Error('bad index in ' + op.path);
            }
            if (op.op === 'add') parent.splice(index, 0, op.value);
            else if (op.op === 'remove') parent.splice(index, 1);
            else if (op.op === 'replace') parent[index] = op.value;
            else throw new Error('unsupported op ' + op.op);
          } else if (parent !== null && typeof parent === 'object') {
            if (op.op === 'remove') delete parent[last];
            else if (op.op === 'add' || op.op === 'replace') parent[last] = op.value;
            else throw new Error('unsupported op ' + op.op);
          } else {
            throw new Error('no container at ' + op.path);
          }
        }
        return root;
      }

      // The value at `path` in `document`, or undefined.
      function valueAt(document, path) {
        let value = document;
        for (const token of tokens(path)) {
          value = child(value, token);
          if (value === undefined) return undefined;
        }
        return value;
      }

      // The paths to flash for a patch: each changed value, or the container an element left.
      function changedPaths(ops) {
        const paths = new Set();
        for (const op of ops) {
          if (op.op === 'remove') {
            const parts = tokens(op.path);
            paths.add(parts.slice(0, -1).reduce(pointer, ''));
          } else {
            paths.add(op.path);
          }
        }
        return paths;
      }

      function short(value, limit = 60) {
        const text = JSON.stringify(value);
        if (text === undefined) return '∅';
        return text.length > limit ? text.slice(0, limit - 1) + '…' : text;
      }

      function span(className, text) {
        const element = document.createElement('span');
        element.className = className;
        element.textContent = text;
        return element;
      }

      function scalar(value) {
        if (value === null) return span('null value', 'null');
        switch (typeof value) {
          case 'string': return span('string value', JSON.stringify(value));
          case 'number': return span('number value', String(value));
          case 'boolean': return span('boolean value', String(value));
          default: return span('value', String(value));
        }
      }

      // Renders `value` into `container`. `options.collapsed` is a Set of paths the user folded
      // (kept across renders); `options.flash` a Set of paths to highlight.
      function render(container, value, options) {
        const fragment = document.createDocumentFragment();
        if (value === undefined) {
          container.replaceChildren();
          return;
        }
        fragment.append(node('', null, value, options));
        container.replaceChildren(fragment);
      }

      function node(path, key, value, options) {
        const flash = options.flash && options.flash.has(path);
        if (value !== null && typeof value === 'object') {
          const isArray = Array.isArray(value);
          const keys = isArray ? value.map((_, i) => i) : Object.keys(value);
          const details = document.createElement('details');
          details.dataset.path = path;
          details.open = !options.collapsed.has(path);
          details.addEventListener('toggle', () => {
            if (details.open) options.collapsed.delete(path);
            else options.collapsed.add(path);
          });
          const summary = document.createElement('summary');
          if (key !== null) summary.append(span('key', String(key)));
          summary.append(span('count', isArray ? `[${keys.length}]` : `{${keys.length}}`));
          summary.append(span('count preview', ' ' + short(value, 50)));
          if (flash) summary.classList.add('flash');
          details.append(summary);
          for (const k of keys) details.append(node(pointer(path, k), k, value[k], options));
          return details;
        }
        const row = document.createElement('div');
        row.className = 'leaf';
        row.dataset.path = path;
        if (key !== null) row.append(span('key', String(key)));
        row.append(scalar(value));
        if (flash) row.classList.add('flash');
        return row;
      }

      return { render, applyPatch, valueAt, changedPaths, pointer, short };
    })();
    """#
}
