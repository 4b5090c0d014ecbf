// Part of the inspector's page, shipped inside the binary as a string (no build step, nothing
// fetched from elsewhere). Served by InspectorRoutes; see InspectorPage.swift.

extension InspectorPage {
  /// The `_host` charts, drawn on a canvas by hand.
  static let chartsScript = #"""
    // Small live charts of the host's `_host` figures, drawn on <canvas> by hand: one or more
    // series of the last samples, scaled to their maximum.
    'use strict';

    const Charts = (() => {
      const capacity = 60;

      class Sparkline {
        constructor(canvas, colors) {
          this.canvas = canvas;
          this.colors = colors;
          this.series = colors.map(() => []);
        }

        push(...values) {
          values.forEach((value, i) => {
            const series = this.series[i];
            series.push(Number.isFinite(value) ? value : 0);
            if (series.length > capacity) series.shift();
          });
          this.draw();
        }

        clear() {
          this.series = this.colors.map(() => []);
          this.draw();
        }

        draw() {
          const canvas = this.canvas;
          const ratio = window.devicePixelRatio || 1;
          const width = canvas.clientWidth || canvas.width;
          const height = canvas.clientHeight || canvas.height;
          if (canvas.width !== Math.round(width * ratio)) {
            canvas.width = Math.round(width * ratio);
            canvas.height = Math.round(height * ratio);
          }
          const g = canvas.getContext('2d');
          g.setTransform(ratio, 0, 0, ratio, 0, 0);
          g.clearRect(0, 0, width, height);
          const style = getComputedStyle(document.documentElement);
          const max = Math.max(1, ...this.series.flat());
          // A faint line at the top, labelled with the scale.
          g.strokeStyle = style.getPropertyValue('--line');
          g.lineWidth = 1;
          g.beginPath();
          g.moveTo(0, 4.5);
          g.lineTo(width, 4.5);
          g.stroke();
          g.fillStyle = style.getPropertyValue('--muted');
          g.font = '10px system-ui, sans-serif';
          g.textAlign = 'right';
          g.fillText(format(max), width - 2, 14);
          const step = width / (capacity - 1);
          this.series.forEach((series, i) => {
            if (series.length === 0) return;
            const color = style.getPropertyValue(this.colors[i]).trim() || this.colors[i];
            const x0 = width - (series.length - 1) * step;
            const y = (v) => height - 2 - (v / max) * (height - 8);
            g.beginPath();
            series.forEach((v, j) => (j === 0 ? g.moveTo(x0, y(v)) : g.lineTo(x0 + j * step, y(v))));
            g.strokeStyle = color;
            g.lineWidth = 1.5;
            g.stroke();
            g.lineTo(x0 + (series.length - 1) * step, height);
            g.lineTo(x0, height);
            g.closePath();
            g.globalAlpha = 0.12;
            g.fillStyle = color;
            g.fill();
            g.globalAlpha = 1;
          });
        }
      }

      // 1234 → "1.2k", 5_300_000 → "5.3M".
      function format(value) {
        const abs = Math.abs(value);
        if (abs >= 1e9) return (value / 1e9).toFixed(1) + 'G';
        if (abs >= 1e6) return (value / 1e6).toFixed(1) + 'M';
        if (abs >= 1e4) return (value / 1e3).toFixed(0) + 'k';
        if (abs >= 1e3) return (value / 1e3).toFixed(1) + 'k';
        return String(Math.round(value));
      }

      // The charts of the footer, fed with `_host` figures as they come (about once a second).
      class HostCharts {
        constructor() {
          this.actions = new Sparkline(document.getElementById('chart-actions'), ['--accent']);
          this.connections = new Sparkline(document.getElementById('chart-connections'), ['--ok']);
          this.bytes = new Sparkline(document.getElementById('chart-bytes'), ['--in', '--out']);
          this.memory = new Sparkline(document.getElementById('chart-memory'), ['--in', '--out']);
          this.previous = null;
        }

        reset(samples) {
          this.actions.clear();
          this.connections.clear();
          this.bytes.clear();
          this.memory.clear();
          this.previous = null;
          for (const figures of samples) this.add(figures);
        }

        add(figures) {
          const previous = this.previous;
          this.previous = figures;
          this.actions.push(figures.actionsPerSecond);
          this.connections.push(figures.connections);
          let rateIn = 0;
          let rateOut = 0;
          // Rates from the totals, over the host's own clock; a restarted host starts again.
          if (previous && figures.uptimeSeconds > previous.uptimeSeconds &&
              figures.bytesIn >= previous.bytesIn && figures.bytesOut >= previous.bytesOut) {
            const seconds = figures.uptimeSeconds - previous.uptimeSeconds;
            rateIn = (figures.bytesIn - previous.bytesIn) / seconds;
            rateOut = (figures.bytesOut - previous.bytesOut) / seconds;
          }
          this.bytes.push(rateIn, rateOut);
          text('value-actions', format(figures.actionsPerSecond));
          text('value-connections', format(figures.connections));
          text('value-bytes-in', format(rateIn));
          text('value-bytes-out', format(rateOut));
          // What the host keeps besides its state: history and change logs (a host from
          // before these figures has none).
          const memory = figures.memory;
          if (memory) {
            const kept = memory.historyBytes + memory.changeLogBytes;
            this.memory.push(memory.residentBytes, kept);
            text('value-memory-resident', format(memory.residentBytes) + 'B');
            text('value-memory-kept', format(kept) + 'B');
          }
        }
      }

      function text(id, value) {
        document.getElementById(id).textContent = value;
      }

      return { HostCharts, Sparkline, format };
    })();
    """#
}
