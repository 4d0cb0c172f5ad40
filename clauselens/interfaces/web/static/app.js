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

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function when(iso) {  // "2 Dec 2026, 05:43" in the browser's time zone
  if (!iso) return "";
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString(undefined, { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
}

function renderDocuments(docs) {
  const ul = $("documents");
  ul.innerHTML = "";
  if (!docs.length) { ul.appendChild(el("li", "muted empty", "No documents yet: upload a contract or pick one.")); return; }
  for (const d of docs) {
    const li = el("li", "document");
    li.dataset.doc = d.doc_id;
    const main = el("div", "doc-main");
    const name = el("div", "doc-name");
    const ext = (d.file_name.split(".").pop() || "").toUpperCase();
    name.appendChild(el("span", "kind", ext));
    name.appendChild(el("span", "fname", d.file_name));
    name.title = d.file_name;
    main.appendChild(name);
    if (d.title) main.appendChild(el("div", "doc-title", d.title));
    const meta = [];
    if (d.pages) meta.push(`${d.pages} page${d.pages === 1 ? "" : "s"}`);
    meta.push(`${Number(d.chars).toLocaleString()} characters`);
    main.appendChild(el("div", "doc-meta", meta.join(" · ")));
    li.appendChild(main);
    const rm = el("button", "btn btn-small btn-danger remove", "Remove");
    rm.type = "button";
    rm.setAttribute("aria-label", `Remove ${d.file_name} from this session`);
    rm.onclick = () => run(async () => {
      const r = await fetch(`/s/${sid}/documents/${encodeURIComponent(d.doc_id)}`, { method: "DELETE" });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      if (!r.ok) throw new Error(data.error || data.detail || r.statusText);
      renderDocuments(data.documents);
      document.body.dataset.idle = "1";
    });
    li.appendChild(rm);
    ul.appendChild(li);
  }
}

// The questions of this session: each opens its report.
let currentReport = null;
function renderQuestions(reports) {
  const ol = $("questions");
  ol.innerHTML = "";
  if (!reports.length) { ol.appendChild(el("li", "muted empty", "No questions yet.")); return; }
  for (const r of reports) {
    const li = el("li");
    const a = el("a", "report-link");
    a.href = "#";
    a.dataset.index = r.index;
    const q = el("span", "q", r.question);
    if (r.verification) q.appendChild(el("span", `badge ${r.verification}`, r.verification));
    a.appendChild(q);
    a.appendChild(el("span", "when", [when(r.generated), r.title].filter(Boolean).join(" · ")));
    a.onclick = async (e) => { e.preventDefault(); await showReport(r.index); revealReport(); };
    li.appendChild(a);
    ol.appendChild(li);
  }
  markActive();
}
function markActive() {
  for (const a of document.querySelectorAll("#questions a.report-link")) {
    a.classList.toggle("active", Number(a.dataset.index) === currentReport);
  }
}

// The sessions this server holds: each reopens it (the page rebuilds from /state).
async function refreshSessions() {
  const ul = $("sessions");
  let list = [];
  try { list = (await (await fetch("/sessions")).json()).sessions || []; } catch (e) { list = []; }
  ul.innerHTML = "";
  if (!list.length) { ul.appendChild(el("li", "muted empty", "No earlier sessions.")); return; }
  for (const s of list) {
    const li = el("li");
    const a = el("a", "session-link" + (s.session === sid ? " active" : ""));
    a.href = `/s/${encodeURIComponent(s.session)}`;
    a.dataset.session = s.session;
    a.appendChild(el("span", "q", s.first_question || `(no question yet) ${s.documents.join(", ")}`));
    const n = s.questions === 1 ? "1 question" : `${s.questions} questions`;
    a.appendChild(el("span", "when", `${when(s.updated)} · ${n}${s.session === sid ? " · this session" : ""}`));
    li.appendChild(a);
    ul.appendChild(li);
  }
}

function renderChat(messages) {
  const chat = $("chat");
  chat.innerHTML = "";
  for (const m of messages) {
    const div = el("div", `msg ${m.role}${m.clarify ? " clarify" : ""}`);
    div.appendChild(el("span", "who", m.role === "user" ? "You" : "clauselens"));
    div.appendChild(document.createTextNode(m.content));
    chat.appendChild(div);
  }
  chat.scrollTop = chat.scrollHeight;
}

async function refresh() {
  const st = await (await fetch(`/s/${sid}/state`)).json();
  if (!st.library) renderDocuments(st.documents);
  renderChat(st.messages);
  renderQuestions(st.reports);
  if (st.reports.length) await showReport(st.reports.length - 1);
  refreshSessions();
  return st;
}

async function showReport(n) {
  const r = await fetch(`/s/${sid}/reports/${n}/fragment`);
  if (!r.ok) return;
  $("report").innerHTML = await r.text();
  currentReport = n;
  markActive();
}

function progress(text) {
  const li = document.createElement("li");
  li.textContent = text;
  $("progress").appendChild(li);
}

// Bring a report that was just written (or picked from the list) into view.
function revealReport() { $("report-card").scrollIntoView({ block: "start" }); }

function follow(job) {
  let gotReport = false;
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
    report: async (ev) => { progress(`Report ready: ${ev.report.title}`); gotReport = true; },
    error: (ev) => showError(ev.message, ev.retry),
    done: async () => {
      es.close(); $("ask").disabled = false; await refresh();
      if (gotReport) revealReport();
      document.body.dataset.idle = "1";
    },
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

if ($("file")) $("file").onchange = () => {
  const f = $("file").files[0];
  $("file-name").textContent = f ? f.name : "no file chosen";
  $("file-name").title = f ? f.name : "";
};

if ($("upload-form")) $("upload-form").onsubmit = (e) => {  // absent in a library session
  e.preventDefault();
  const f = $("file").files[0];
  if (!f) { showError("Choose a file first.", false); return; }
  const body = new FormData();
  body.append("file", f);
  run(async () => {
    const data = await postForm(`/s/${sid}/upload`, body);
    $("file").value = "";
    $("file-name").textContent = "no file chosen";
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

// Open the cited document and highlight the quoted span(s): a PDF shows the cited page(s) as
// images with the quoted words boxed (the server finds their character boxes); any other
// document (and a PDF's "Text" tab) shows its text with the quote marked.
function showTab(which) {
  $("tab-page").setAttribute("aria-pressed", String(which === "page"));
  $("tab-text").setAttribute("aria-pressed", String(which === "text"));
  $("pageview").hidden = which !== "page";
  $("doctext").hidden = which !== "text";
  $("zoom").hidden = which !== "page";
  const box = $(which === "page" ? "pageview" : "doctext");
  const target = box.querySelector(which === "page" ? ".hl-box" : "mark.hl");
  if (target) {  // scroll the view (not the page) to the quote: a third down, its left edge in sight
    const b = box.getBoundingClientRect(), t = target.getBoundingClientRect();
    box.scrollTop += t.top - b.top - b.height / 3;
    // the left edge of the quote's lines (a quote starting mid-line keeps its line start in sight)
    const left = Math.min(...Array.from(box.querySelectorAll(which === "page" ? ".hl-box" : "mark.hl"),
      (e) => e.getBoundingClientRect().left));
    box.scrollLeft += left - b.left - 16;
  }
}
$("tab-page").onclick = () => showTab("page");
$("tab-text").onclick = () => showTab("text");
$("zoom").onclick = () => {
  const on = !$("pageview").classList.contains("zoomed");
  $("pageview").classList.toggle("zoomed", on);
  $("zoom").setAttribute("aria-pressed", String(on));
  showTab("page");
};

function showText(d, starts, ends, cid) {
  const pre = $("doctext");
  pre.classList.remove("muted");
  pre.innerHTML = "";
  let pos = 0;
  const spans = starts.map((s, i) => [s, ends[i]]).sort((x, y) => x[0] - y[0]);
  for (const [s, e] of spans) {
    if (s < pos) continue;
    pre.appendChild(document.createTextNode(d.text.slice(pos, s)));
    const mark = el("mark", "hl", d.text.slice(s, e));
    mark.dataset.cid = cid;
    pre.appendChild(mark);
    pos = e;
  }
  pre.appendChild(document.createTextNode(d.text.slice(pos)));
}

async function showPages(d, starts, ends) {
  const spans = starts.map((s, i) => `${s}-${ends[i]}`).join(",");
  const r = await fetch(`/s/${sid}/documents/${encodeURIComponent(d.doc_id)}/highlight?spans=${spans}`);
  const h = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(h.error || r.statusText);
  const view = $("pageview");
  view.innerHTML = "";
  const loads = [];
  for (const p of h.pages) {
    const fig = el("figure", "page");
    fig.dataset.page = p.number;
    const img = el("img");
    img.alt = `${d.file_name}, page ${p.number}`;
    loads.push(new Promise((ok) => { img.onload = ok; img.onerror = ok; }));
    img.src = p.image;
    fig.appendChild(img);
    for (const [x0, y0, x1, y1] of p.boxes) {
      const b = el("div", "hl-box");
      Object.assign(b.style, { left: `${x0 * 100}%`, top: `${y0 * 100}%`, width: `${(x1 - x0) * 100}%`, height: `${(y1 - y0) * 100}%` });
      fig.appendChild(b);
    }
    fig.appendChild(el("figcaption", "", `page ${p.number} of ${d.pages.length}`));
    view.appendChild(fig);
  }
  await Promise.all(loads);
  return h;
}

async function openCitation(a) {
  const doc = a.dataset.doc;
  const starts = JSON.parse(a.dataset.spans || "[]");
  const ends = JSON.parse(a.dataset.ends || "[]");
  const r = await fetch(`/s/${sid}/documents/${encodeURIComponent(doc)}`);
  const d = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) { showError(`Cannot open the document: ${d.error || r.statusText}`, false); return; }
  $("doc-title").textContent = d.title;
  showText(d, starts, ends, a.dataset.cid);
  const note = $("doc-note");
  note.hidden = true;
  $("view-tabs").hidden = !d.pdf;
  if (!d.pdf) {
    $("pageview").innerHTML = "";
    showTab("text");
    if (window.matchMedia("(max-width: 1100px)").matches) $("viewer").scrollIntoView({ block: "start" });
    return;
  }
  try {
    const h = await showPages(d, starts, ends);
    const pages = h.pages.map((p) => p.number);
    note.textContent = h.found
      ? `${d.file_name}, page${pages.length > 1 ? "s" : ""} ${pages.join(", ")}: the quoted words are boxed.`
      : `${d.file_name}, page ${pages.join(", ")}: the quoted words could not be placed on the page image (no text layer); the Text tab marks them.`;
    note.hidden = false;
    showTab("page");
  } catch (e) {
    showError(`Cannot show the page image: ${e.message}`, false);
    showTab("text");
  }
  // one column (narrow window): bring the document view to the reader
  if (window.matchMedia("(max-width: 1100px)").matches) $("viewer").scrollIntoView({ block: "start" });
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
