// clauselens web UI: plain browser APIs (fetch, EventSource); no external scripts.
"use strict";
const sid = document.body.dataset.sid;
const $ = (id) => document.getElementById(id);
let lastAction = null;  // for the Retry button when the model backend was down

function showError(message, retry) {
  $("error-text").textContent = message;
  $("retry").hidden = !retry;
  $("error").hidden = false;
}
function clearError() { $("error").hidden = true; $("retry").hidden = true; }
$("error-close").onclick = clearError;

async function postForm(url, body) {
  const r = await fetch(url, { method: "POST", body });
  let data = {};
  try { data = await r.json(); } catch (e) { data = { error: r.statusText }; }
  if (!r.ok) throw new Error(data.error || data.detail || r.statusText);
  return data;
}

function renderDocuments(docs) {
  const ul = $("documents");
  ul.innerHTML = "";
  if (!docs.length) { ul.innerHTML = '<li class="muted">none yet</li>'; return; }
  for (const d of docs) {
    const li = document.createElement("li");
    li.className = "document";
    li.dataset.doc = d.doc_id;
    li.textContent = `${d.file_name}${d.title ? " — " + d.title : ""} (${d.chars} chars)`;
    ul.appendChild(li);
  }
}

function renderChat(messages) {
  const chat = $("chat");
  chat.innerHTML = "";
  for (const m of messages) {
    const div = document.createElement("div");
    div.className = `msg ${m.role}${m.clarify ? " clarify" : ""}`;
    div.textContent = (m.role === "user" ? "You: " : "clauselens: ") + m.content;
    chat.appendChild(div);
  }
  chat.scrollTop = chat.scrollHeight;
}

async function refresh() {
  const st = await (await fetch(`/s/${sid}/state`)).json();
  renderDocuments(st.documents);
  renderChat(st.messages);
  if (st.reports.length) await showReport(st.reports.length - 1);
  return st;
}

async function showReport(n) {
  const r = await fetch(`/s/${sid}/reports/${n}/fragment`);
  if (r.ok) $("report").innerHTML = await r.text();
}

function progress(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("progress").appendChild(li);
}

function follow(job) {
  $("ask").disabled = true;
  const es = new EventSource(`/s/${sid}/jobs/${job}/events`);
  const handlers = {
    status: (ev) => progress(ev.text),
    request: (ev) => progress(`Archivist → Interrogator: "${ev.request.question}"`),
    round: (ev) => progress(ev.text),
    clarify: (ev) => progress(`Archivist asks: ${ev.text}`),
    resolution: (ev) => progress(ev.labels.length === 0 ? "Library: no agreement named; searching the whole library"
      : `Library: ${ev.status === "clarified" ? "searching your choice:" : ev.labels.length === 1 ? "the question names"
        : "searching"} ${ev.labels.join("; ")}`),
    report: async (ev) => { progress(`Report ready: ${ev.report.title}`); },
    error: (ev) => showError(ev.message, ev.retry),
    done: async () => { es.close(); $("ask").disabled = false; await refresh(); document.body.dataset.idle = "1"; },
  };
  for (const [name, fn] of Object.entries(handlers)) {
    es.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  }
  // a dropped connection is re-opened by the browser with Last-Event-ID (only missed events are
  // sent); a closed one (the server forgot the job, e.g. after a restart) frees the Ask button
  es.onerror = () => { if (es.readyState === EventSource.CLOSED) $("ask").disabled = false; };
}

async function run(action) {
  lastAction = action;
  clearError();
  document.body.dataset.idle = "0";
  try { await action(); } catch (e) { showError(e.message, false); document.body.dataset.idle = "1"; }
}

if ($("upload-form")) $("upload-form").onsubmit = (e) => {  // absent in a library session
  e.preventDefault();
  const f = $("file").files[0];
  if (!f) { showError("Choose a file first.", false); return; }
  const body = new FormData();
  body.append("file", f);
  run(async () => {
    const data = await postForm(`/s/${sid}/upload`, body);
    renderDocuments(data.documents);
    document.body.dataset.idle = "1";
  });
};

if ($("pick-form")) {
  $("pick-form").onsubmit = (e) => {
    e.preventDefault();
    const body = new FormData();
    body.append("path", $("pick").value);
    run(async () => { renderDocuments((await postForm(`/s/${sid}/pick`, body)).documents); document.body.dataset.idle = "1"; });
  };
}

$("ask-form").onsubmit = (e) => {
  e.preventDefault();
  const q = $("question").value.trim();
  if (!q) { showError("Type a question first.", false); return; }
  const body = new FormData();
  body.append("message", q);
  $("progress").innerHTML = "";
  run(async () => {
    const { job } = await postForm(`/s/${sid}/ask`, body);
    $("question").value = "";
    await refresh();
    follow(job);
  });
};

$("retry").onclick = () => {
  clearError();
  run(async () => { const { job } = await postForm(`/s/${sid}/retry`, new FormData()); follow(job); });
};

// Open the cited document and highlight the quoted span(s).
async function openCitation(a) {
  const doc = a.dataset.doc;
  const starts = JSON.parse(a.dataset.spans || "[]");
  const ends = JSON.parse(a.dataset.ends || "[]");
  const r = await fetch(`/s/${sid}/documents/${encodeURIComponent(doc)}`);
  if (!r.ok) { showError(`Cannot open the document: ${r.statusText}`, false); return; }
  const d = await r.json();
  $("doc-title").textContent = d.title;
  const pre = $("doctext");
  pre.classList.remove("muted");
  pre.innerHTML = "";
  let pos = 0;
  let first = null;
  const spans = starts.map((s, i) => [s, ends[i]]).sort((x, y) => x[0] - y[0]);
  for (const [s, e] of spans) {
    if (s < pos) continue;
    pre.appendChild(document.createTextNode(d.text.slice(pos, s)));
    const mark = document.createElement("mark");
    mark.className = "hl";
    mark.dataset.cid = a.dataset.cid;
    mark.textContent = d.text.slice(s, e);
    pre.appendChild(mark);
    first = first || mark;
    pos = e;
  }
  pre.appendChild(document.createTextNode(d.text.slice(pos)));
  if (first) first.scrollIntoView({ block: "center" });
}

$("report").addEventListener("click", (e) => {
  const a = e.target.closest("a.citation");
  if (a) { e.preventDefault(); openCitation(a); return; }
  const ref = e.target.closest("a.cite-ref");
  if (ref) {
    e.preventDefault();
    const c = document.querySelector(`a.citation[data-cid="${ref.dataset.cid}"]`);
    if (c) openCitation(c);
    return;
  }
  const fu = e.target.closest("a.followup");
  if (fu) { e.preventDefault(); $("question").value = fu.textContent; }
});

// A turn runs on the server, not in the page: after a reload (or on a second tab) the page asks
// /state for the session's latest job and, while it runs, re-opens its event stream, which
// replays the progress so far and then continues; the report appears when it is done.
refresh().then((st) => {
  if (st.job && !st.job.done) {
    $("progress").innerHTML = "";
    progress("Re-attached to the question still running on the server");
    follow(st.job.id);
  } else {
    document.body.dataset.idle = "1";
  }
});
