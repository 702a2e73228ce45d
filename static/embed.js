// embed.js: how a scored document goes into the report's HTML, safe inside <script>: `<` only
// ever appears inside JSON strings, where \u003c means the same, so no "</script>" or "<!--"
// survives. scorer/report.py does the same on the same cases (tests/fixtures/embedding.json).

/** JSON text made safe to sit inside a <script> element. */
export function embedJson(jsonText) {
  return jsonText.replace(/</g, '\\u003c');
}

/** The report shell with its data slot (`marker`) filled: the data is taken literally (a
 * string replacement would read "$&" in it as a pattern). */
export function fillShell(shell, marker, jsonText) {
  return shell.replace(marker, () => embedJson(jsonText));
}
