// cells.js: a scored document's text as DOM cells, one span per whole character (per grapheme
// cluster: a family emoji joined by ZWJ, a flag, a letter with its combining marks are one
// cell, data-n their code points), and the tooltip beside a cell. Document text only ever
// reaches the DOM through textContent.
import { surpriseAlpha } from './render.js';

/** The cells of `doc`: {fragment, breakCells: Map(char offset -> span of a decidable break)};
 * characters more surprising than `surpriseBits` are shaded. */
export function buildCells(doc, breakAt, surpriseBits) {
  const breakCells = new Map();
  const fragment = document.createDocumentFragment();
  let skip = 0;
  const sizes = clusterSizes(doc.cells);
  doc.cells.forEach((cell, i) => {
    if (skip) { skip -= 1; return; }
    if (sizes.has(i)) {
      skip = sizes.get(i) - 1;
      fragment.append(clusterCell(doc.cells, i, sizes.get(i), surpriseBits));
      return;
    }
    const span = document.createElement('span');
    span.dataset.i = i;
    span.tabIndex = -1; // the text is one Tab stop; keys move inside it
    if (cell.ch === '\n') {
      span.className = 'nl';
      span.textContent = '⏎';
      if (breakAt.get(i)) {
        span.classList.add('break');
        breakCells.set(i, span);
      }
      fragment.append(span, document.createElement('br'));
      return;
    }
    span.textContent = cell.ch;
    const alpha = surpriseAlpha(cell.logprob, surpriseBits);
    if (alpha > 0) {
      span.classList.add('surprise');
      span.style.setProperty('--surprise', alpha.toFixed(2));
    }
    if (cell.t.length && cell.t[1] > cell.t[0]) span.classList.add('split');
    fragment.append(span);
  });
  return { fragment, breakCells };
}

/** Where a grapheme cluster holds several code points: Map(first code point's index -> their
 * count). A newline is always a cluster of its own (Unicode breaks after a line feed). */
export function clusterSizes(cells) {
  const out = new Map();
  if (typeof Intl === 'undefined' || !Intl.Segmenter) return out;
  const text = cells.map((c) => c.ch).join('');
  let i = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) {
    const n = Array.from(segment).length;
    if (n > 1) out.set(i, n);
    i += n;
  }
  return out;
}

/** One cell for the code points i .. i + n - 1 (shaded by their joint surprise). */
function clusterCell(cells, i, n, surpriseBits) {
  const part = cells.slice(i, i + n);
  const span = document.createElement('span');
  span.dataset.i = i;
  span.dataset.n = n;
  span.tabIndex = -1;
  span.textContent = part.map((c) => c.ch).join('');
  const logprob = part.some((c) => c.logprob === null) ? null : part.reduce((s, c) => s + c.logprob, 0);
  const alpha = surpriseAlpha(logprob, surpriseBits);
  if (alpha > 0) {
    span.classList.add('surprise');
    span.style.setProperty('--surprise', alpha.toFixed(2));
  }
  span.classList.add('split'); // several code points, each with its tokens: hover shows them
  return span;
}

/** Fill the tooltip `tip` with `rows` ([label, value]) and place it by `span`, inside the
 * viewport: below the cell if it fits, else above it; never off the right edge. */
export function placeTip(tip, rows, span) {
  const fragment = document.createDocumentFragment();
  rows.forEach(([label, value]) => {
    const row = document.createElement('div');
    const key = document.createElement('b');
    key.textContent = `${label}: `;
    const val = document.createElement('span');
    val.textContent = value;
    row.append(key, val);
    fragment.append(row);
  });
  tip.replaceChildren(fragment);
  tip.style.left = '0px'; // measured where it has the whole width: next to the right edge
  tip.style.top = '0px'; // it would shrink to what is left there, and grow tall
  tip.hidden = false;
  const box = span.getBoundingClientRect();
  const view = document.documentElement;
  const left = Math.min(box.left, view.clientWidth - tip.offsetWidth - 8);
  const below = box.bottom + 6 + tip.offsetHeight <= view.clientHeight;
  const top = below ? box.bottom + 6 : Math.max(4, box.top - 6 - tip.offsetHeight);
  tip.style.left = `${window.scrollX + Math.max(4, left)}px`;
  tip.style.top = `${window.scrollY + top}px`;
}
