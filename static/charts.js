// charts.js: the view's two SVG charts, drawn from the document and the policy: the histogram
// of P(newline) with the cutoff, and (with labels) the scores panel with macro-F1 against the
// cutoff. Pure drawing: no state of its own.
import { svgNode } from './dom.js';
import { f1Curve, scoreLabels } from './labels.js';
import { histogram } from './render.js';

/** The histogram of P(newline) of `breaks` into the <svg> `svg`. */
export function drawHistogram(svg, breaks, policy) {
  const { bins, lo, hi, cutAt } = histogram(breaks, policy, 30);
  const width = Math.max(300, svg.clientWidth || 600); // 1 unit = 1 px: text unstretched
  const height = 100;
  const base = height - 20; // bars above, the axis below
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const children = [];
  const peak = Math.max(1, ...bins.map((b) => b.count));
  const barW = bins.length ? width / bins.length : width;
  bins.forEach((bin, k) => {
    const h = ((base - 4) * bin.count) / peak;
    const rect = svgNode('rect', {
      x: (k * barW + 1).toFixed(1), y: (base - h).toFixed(1), width: Math.max(1, barW - 2).toFixed(1),
      height: h.toFixed(1), class: bin.joined * 2 > bin.count ? 'bar join' : 'bar keep',
    });
    rect.append(svgNode('title', {}, `P(newline) 10^${bin.lo.toFixed(1)}–10^${bin.hi.toFixed(1)}: ${bin.count} breaks`));
    children.push(rect);
  });
  if (cutAt !== null && hi > lo) {
    const x = (((cutAt - lo) / (hi - lo)) * width).toFixed(1);
    children.push(svgNode('line', { x1: x, x2: x, y1: 0, y2: base, class: 'cut' }));
  }
  children.push(svgNode('line', { x1: 0, x2: width, y1: base, y2: base, class: 'tick' }));
  const step = Math.max(1, Math.ceil((hi - lo) / 8)); // at most ~8 ticks, at powers of ten
  for (let e = Math.ceil(lo / step) * step; e <= hi; e += step) {
    const at = ((e - lo) / (hi - lo)) * width;
    const x = at.toFixed(1);
    children.push(svgNode('line', { x1: x, x2: x, y1: base, y2: base + 4, class: 'tick' }));
    // a label at either end is anchored inwards, never cut by the edge
    const anchor = at < 24 ? 'start' : at > width - 24 ? 'end' : 'middle';
    children.push(svgNode('text', { x, y: base + 15, class: 'axis', 'text-anchor': anchor },
      e === 0 ? '1' : `1e${e}`));
  }
  children.push(svgNode('text', { x: width - 2, y: 11, class: 'axis', 'text-anchor': 'end' },
    policy.decider === 'percentile' ? 'P(newline), log scale · the cutoff (dashed) joins what lies left of it, unless the layout keeps it'
      : 'P(newline), log scale · colour: what the hybrid decided in each bar'));
  svg.replaceChildren(...children);
}

/** With labels ({offset: decision}): how the decider does on them (into `text`), and macro-F1
 * of the percentile decider against the cutoff, the hybrid's level dashed (into `svg`). */
export function drawScores(text, svg, breaks, policy, labels) {
  const n = Object.keys(labels).length;
  const now = scoreLabels(breaks, policy, labels);
  const hybrid = scoreLabels(breaks, { ...policy, decider: 'hybrid' }, labels);
  const curve = f1Curve(breaks, policy, labels);
  const best = curve.reduce((a, b) => (b[1] > a[1] ? b : a));
  const who = policy.decider === 'hybrid' ? 'the hybrid' : `the percentile at ${policy.cutoff} %`;
  const joins = Object.values(labels).filter((d) => d === 'join').length;
  text.textContent = `On your ${n} label${n === 1 ? '' : 's'} (the hand decisions: ${joins} join, ${n - joins} keep), ${who} alone gets accuracy ${now.accuracy.toFixed(3)}, macro-F1 ${now.macro_f1.toFixed(3)}. Best cutoff ${best[0]} % (macro-F1 ${best[1].toFixed(3)}); the hybrid ${hybrid.macro_f1.toFixed(3)}.`;
  text.dataset.macroF1 = now.macro_f1.toFixed(6);
  text.dataset.accuracy = now.accuracy.toFixed(6);
  drawCurve(svg, curve, hybrid.macro_f1, policy);
}

function drawCurve(svg, curve, hybridF1, policy) {
  const width = Math.max(300, svg.clientWidth || 600);
  const height = 120;
  const pad = 24;
  const x = (c) => pad + ((width - 2 * pad) * c) / 100;
  const y = (f) => height - pad - (height - 2 * pad) * f;
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  const children = [
    svgNode('line', { x1: pad, x2: width - pad, y1: y(0), y2: y(0), class: 'tick' }),
    svgNode('line', { x1: pad, x2: pad, y1: y(0), y2: y(1), class: 'tick' }),
    svgNode('line', { x1: pad, x2: width - pad, y1: y(hybridF1), y2: y(hybridF1), class: 'hybrid' }),
    svgNode('polyline', { points: curve.map(([c, f]) => `${x(c).toFixed(1)},${y(f).toFixed(1)}`).join(' '), class: 'f1' }),
    svgNode('text', { x: pad - 4, y: y(1) + 4, class: 'axis', 'text-anchor': 'end' }, '1'),
    svgNode('text', { x: pad - 4, y: y(0) + 4, class: 'axis', 'text-anchor': 'end' }, '0'),
    svgNode('text', { x: width - pad, y: height - 6, class: 'axis', 'text-anchor': 'end' }, 'cutoff 100 %'),
    svgNode('text', { x: pad, y: height - 6, class: 'axis' }, '0 %'),
    svgNode('text', { x: width - pad, y: 12, class: 'axis', 'text-anchor': 'end' }, 'macro-F1 of the percentile against the cutoff · dashed: the hybrid'),
  ];
  if (policy.decider === 'percentile') {
    const cx = x(policy.cutoff).toFixed(1);
    children.push(svgNode('line', { x1: cx, x2: cx, y1: y(0), y2: y(1), class: 'cut' }));
  }
  svg.replaceChildren(...children);
}
