// cells.js: a scored document's text as DOM cells, one span per whole character, and the
// tooltip beside a cell. Document text only ever reaches the DOM through textContent.
import { surpriseAlpha } from './render.js';

/** The cells of `doc`: {fragment, breakCells: Map(char offset -> span of a decidable break)};
 * characters more surprising than `surpriseBits` are shaded. */
export function buildCells(doc, breakAt, surpriseBits) {
  const breakCells = new Map();
  const fragment = document.createDocumentFragment();
  doc.cells.forEach((cell, i) => {
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
