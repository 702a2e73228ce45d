// report.js: the HTML report's entry (scorer/report.py bundles it with the modules it imports):
// the scored document embedded in the file, shown by view.js. No server, no request.
import { download } from './dom.js';
import { labelLines } from './labels.js';
import { warningsLine } from './render.js';
import { mountView } from './view.js';

const data = JSON.parse(document.getElementById('report-data').textContent);
const merged = document.getElementById('merged');
const view = mountView({ policy: data.policy, onChange: () => { merged.textContent = view.merged(); } });
view.show(data.doc, data.name);
if (data.follow) view.setFollow(data.follow);
if (data.overrides && Object.keys(data.overrides).length) view.addLabels(data.overrides);
if (data.compare) view.compare(data.compare); // a second model's breaks, as the page showed them
document.title = `${data.name} · Prefill Lens report`;
document.getElementById('report-name').textContent = data.name;
const { model, mode } = data.doc;
document.getElementById('report-about').textContent = `Scored by ${model.file} (context ${mode}); every line break of the text is coloured by what was decided: red joined, green kept. Hover for the evidence; the controls recompute in this file. ${warningsLine(data.doc)}`.trim();
document.getElementById('save-labels').addEventListener('click', () => {
  const { doc, labels } = view.state;
  download(`${data.name}.labels.jsonl`, 'application/x-ndjson', labelLines(doc, labels));
});
document.getElementById('download-txt').addEventListener('click', () => {
  download(`${data.name}.merged.txt`, 'text/plain;charset=utf-8', view.merged());
});
