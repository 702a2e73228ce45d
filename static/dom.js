// dom.js: small DOM helpers shared by the page (main.js), the view and the report (report.js).

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes and, optionally, text. */
export function svgNode(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  Object.entries(attrs).forEach(([k, v]) => node.setAttribute(k, String(v)));
  if (text) node.textContent = text;
  return node;
}

/** Save `content` as a file called `name` (the object URL is let go once the click is done). */
export function download(name, type, content) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
