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
  if (document.body.classList.contains("mode-grid")) loadGridOptions();  // the grid's agreement list follows
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

// The draft's answer as the model writes it (draft_text events): one live line under the
// progress list, replaced by each event and removed when the round's line arrives.
function drafting(ev) {
  let el = $("drafting");
  if (!ev) { if (el) el.remove(); return; }
  if (!el) {
    el = document.createElement("li");
    el.id = "drafting";
    el.className = "drafting";
    $("progress").appendChild(el);
  }
  el.textContent = `Interrogator writing the ${ev.field === "answer" ? "answer" : "draft"}: ${ev.text}`;
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
    round: (ev) => { drafting(null); progress(ev.text); },
    draft_text: (ev) => drafting(ev),
    clarify: (ev) => progress(`Archivist asks: ${ev.text}`),
    resolution: (ev) => progress(ev.labels.length === 0 ? "Library: no agreement named; searching the whole library"
      : `Library: ${ev.status === "clarified" ? "searching your choice:" : ev.labels.length === 1 ? "the question names"
        : "searching"} ${ev.labels.join("; ")}`),
    report: async (ev) => { drafting(null); progress(`Report ready: ${ev.report.title}`); gotReport = true; },
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
  return openDocument(a.dataset.doc, JSON.parse(a.dataset.spans || "[]"), JSON.parse(a.dataset.ends || "[]"), a.dataset.cid);
}

// Open document `doc` with the [starts[i], ends[i]) ranges of its text highlighted; `caption`
// (a grid cell: its agreement, question and status) leads the note above the view.
async function openDocument(doc, starts, ends, cid, caption) {
  const r = await fetch(`/s/${sid}/documents/${encodeURIComponent(doc)}`);
  const d = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) { showError(`Cannot open the document: ${d.error || r.statusText}`, false); return; }
  $("doc-title").textContent = d.title;
  showText(d, starts, ends, cid || "");
  const note = $("doc-note");
  note.textContent = caption || "";
  note.hidden = !caption;
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
    note.textContent = (caption ? caption + " — " : "") + (h.found
      ? `${d.file_name}, page${pages.length > 1 ? "s" : ""} ${pages.join(", ")}: the quoted words are boxed.`
      : `${d.file_name}, page ${pages.join(", ")}: the quoted words could not be placed on the page image (not found in its text); the Text tab marks them.`);
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

// ---------------------------------------------------------------- review grid
// A grid (agreements × questions) runs on the server as a job; its events fill the table cell
// by cell: "grid" (rows and questions), "cell" (one cell and the progress), "grid_done".
const STATUS_CLASS = { "answered": "s-answered", "not found": "s-not-found", "unverified": "s-unverified", "error": "s-error" };
let grid = null;       // {id, rows, questions}
let gridSource = null; // the EventSource of the grid being followed
let lastGridId = null; // the session's latest grid (from /state), shown when the grid view opens

function setMode(mode) {
  const isGrid = mode === "grid";
  document.body.classList.toggle("mode-grid", isGrid);
  document.body.classList.remove("mode-library");  // the library room (library.js) steps aside
  if ($("mode-library")) $("mode-library").setAttribute("aria-pressed", "false");
  $("mode-ask").setAttribute("aria-pressed", String(!isGrid));
  $("mode-grid").setAttribute("aria-pressed", String(isGrid));
  history.replaceState(null, "", isGrid ? "#grid" : location.pathname);
  if (isGrid) {
    loadGridOptions();
    if (lastGridId && (!grid || grid.id !== lastGridId)) showGrid(lastGridId);
  }
}
$("mode-ask").onclick = () => setMode("ask");
$("mode-grid").onclick = () => setMode("grid");

async function loadGridOptions() {
  const r = await fetch(`/s/${sid}/grid/options`);
  const o = await r.json().catch(() => ({ agreements: [], presets: [] }));
  const ul = $("grid-agreements");
  const was = new Set(Array.from(ul.querySelectorAll("input:not(:checked)"), (i) => i.value));
  ul.innerHTML = "";
  if (!o.agreements.length) ul.appendChild(el("li", "muted empty", "No documents yet: upload a contract or pick one."));
  for (const a of o.agreements) {
    const li = el("li");
    const lab = el("label", "check");
    const box = el("input");
    box.type = "checkbox";
    box.value = a.doc_id;
    box.checked = $("grid-all").checked || !was.has(a.doc_id);
    box.onchange = () => { $("grid-all").checked = !ul.querySelector("input:not(:checked)"); };
    lab.appendChild(box);
    lab.appendChild(el("span", "fname", a.file_name));
    if (a.label && a.label !== a.file_name) lab.appendChild(el("span", "muted", a.label));
    lab.title = a.label || a.file_name;
    li.appendChild(lab);
    ul.appendChild(li);
  }
  $("grid-all-count").textContent = `(${o.agreements.length})`;
  const sel = $("grid-preset");
  if (sel.options.length === 1) {
    for (const p of o.presets) {
      const opt = el("option", "", `${p.name.toUpperCase()} preset: ${p.questions} clause categories`);
      opt.value = p.name;
      sel.appendChild(opt);
    }
  }
}
$("grid-all").onchange = () => {
  for (const b of $("grid-agreements").querySelectorAll("input")) b.checked = $("grid-all").checked;
};
$("grid-preset").onchange = () => { $("grid-questions").disabled = Boolean($("grid-preset").value); };

$("grid-form").onsubmit = (e) => {
  e.preventDefault();
  const body = new FormData();
  const boxes = Array.from($("grid-agreements").querySelectorAll("input"));
  const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
  if (!chosen.length) { showError("Choose at least one agreement.", false); return; }
  if (chosen.length < boxes.length) for (const d of chosen) body.append("agreements", d);
  const preset = $("grid-preset").value;
  if (preset) body.append("preset", preset);
  else {
    const q = $("grid-questions").value.trim();
    if (!q) { showError("Type the questions, one per line, or choose a preset.", false); return; }
    body.append("questions", q);
  }
  run(async () => {
    const { grid: gid } = await postForm(`/s/${sid}/grids`, body);
    lastGridId = gid;
    followGrid(gid);
  });
};

function fmtSeconds(s) {
  if (s === null || s === undefined) return "";
  s = Math.round(s);
  return s < 60 ? `${s} s` : s < 3600 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`
    : `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

function renderGrid(g) {  // the table's frame: one row per agreement, one column per question
  const keep = grid && grid.id === g.grid_id ? grid.cells : {};
  grid = { id: g.grid_id, rows: g.rows, questions: g.questions, cells: keep };
  $("grid-status").hidden = false;
  for (const a of $("grid-downloads").querySelectorAll("a")) a.href = `/s/${sid}/grids/${g.grid_id}/export.${a.dataset.fmt}`;
  const t = $("grid-table");
  t.innerHTML = "";
  const head = el("tr");
  head.appendChild(el("th", "corner", "Agreement"));
  for (const q of g.questions) {
    const th = el("th", "", q.label);
    th.title = `${q.question} (${q.type.replace("_", "/")})`;
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  t.appendChild(thead);
  const tbody = el("tbody");
  for (const r of g.rows) {
    const tr = el("tr");
    const th = el("th", "agr");
    th.appendChild(el("span", "agr-name", r.agreement));
    if (r.file && r.file !== r.agreement) th.appendChild(el("span", "agr-file", r.file));
    th.title = r.file || r.agreement;
    tr.appendChild(th);
    for (const q of g.questions) {
      const td = el("td");
      const b = el("button", "gcell pending");
      b.type = "button";
      b.dataset.row = r.row;
      b.dataset.q = q.id;
      b.appendChild(el("span", "ans", "…"));
      b.appendChild(el("span", "st", "pending"));
      b.onclick = () => openGridCell(r.row, q.id);
      td.appendChild(b);
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  t.appendChild(tbody);
  for (const c of Object.values(keep)) fillCell(c);
  updateGridProgress(g.progress);
}

function fillCell(c) {
  grid.cells[`${c.row}/${c.question_id}`] = c;
  const b = $("grid-table").querySelector(`button.gcell[data-row="${c.row}"][data-q="${CSS.escape(c.question_id)}"]`);
  if (!b) return;
  b.className = `gcell ${STATUS_CLASS[c.status] || ""}`;
  b.querySelector(".ans").textContent = c.answer || (c.status === "error" ? "error" : "—");
  const where = [c.clause ? `cl. ${c.clause}` : "", c.page ? `p. ${c.page}` : ""].filter(Boolean).join(" · ");
  b.querySelector(".st").textContent = c.status === "error" ? c.reason : [c.status, where].filter(Boolean).join(" · ");
  b.title = c.quote ? `“${c.quote}”` : c.reason || c.status;
}

function updateGridProgress(p) {
  if (!p) return;
  const pct = p.total ? Math.round((100 * p.done) / p.total) : 0;
  $("grid-bar").style.width = `${pct}%`;
  let text = `${p.done} of ${p.total} cells`;
  if (p.state === "preparing") text += " · indexing the agreements";
  else if (p.state === "running") text += p.eta_s !== null ? ` · ETA ${fmtSeconds(p.eta_s)}` : " · estimating the time left";
  else if (p.state === "done") text += ` · done in ${fmtSeconds(p.seconds)}`;
  else if (p.state === "failed") text += " · stopped";
  else if (p.state === "interrupted") text += " · interrupted by a server restart: Resume fills the missing cells";
  if (p.cells_per_minute) text += ` · ${p.cells_per_minute.toFixed(1)} cells/min`;
  if (p.reused) text += ` · ${p.reused} reused`;
  $("grid-progress-text").textContent = text;
  const counts = $("grid-counts");
  counts.innerHTML = "";
  for (const [k, v] of Object.entries(p.counts || {})) {
    const chip = el("span", `chip ${STATUS_CLASS[k]}`, `${k} ${v}`);
    counts.appendChild(chip);
  }
  $("grid-start").disabled = p.state === "preparing" || p.state === "running";
  $("grid-resume").hidden = !(p.state === "interrupted" || p.state === "failed");
}

// A grid the server is not running (done, failed, or interrupted by a restart, after which it has
// no event stream) is shown from its snapshot; a running one is followed through its events.
async function showGrid(gid) {
  const r = await fetch(`/s/${sid}/grids/${gid}`);
  if (!r.ok) return;
  const g = await r.json();
  if (g.progress.state === "preparing" || g.progress.state === "running") { followGrid(gid); return; }
  renderGrid(g);
  for (const c of g.cells) fillCell(c);
  updateGridProgress(g.progress);
}

$("grid-resume").onclick = () => {
  if (!grid) return;
  const gid = grid.id;
  $("grid-resume").hidden = true;
  run(async () => {
    await postForm(`/s/${sid}/grids/${gid}/resume`, new FormData());
    followGrid(gid);
  });
};

function followGrid(gid) {
  if (gridSource) gridSource.close();
  document.body.dataset.gridIdle = "0";
  $("grid-start").disabled = true;
  const es = new EventSource(`/s/${sid}/jobs/${gid}/events`);
  gridSource = es;
  const handlers = {
    grid: (ev) => renderGrid(ev.grid),
    status: (ev) => { $("grid-progress-text").textContent = ev.text; },
    cell: (ev) => { if (grid && grid.id === gid) { fillCell(ev.cell); updateGridProgress(ev.progress); } },
    grid_done: (ev) => updateGridProgress(ev.grid.progress),
    error: (ev) => showError(ev.message, false),
    done: () => { es.close(); $("grid-start").disabled = false; document.body.dataset.gridIdle = "1"; },
  };
  for (const [name, fn] of Object.entries(handlers)) es.addEventListener(name, (e) => fn(JSON.parse(e.data)));
  // the server forgot the grid (a restart): free the Start button
  es.onerror = () => { if (es.readyState === EventSource.CLOSED) { $("grid-start").disabled = false; document.body.dataset.gridIdle = "1"; } };
}

// A cell opens its verified quote in the document view; a cell without one (not found,
// unverified) opens the passage the grid read first, and says so; an error cell shows its reason.
function openGridCell(row, qid) {
  const c = grid && grid.cells[`${row}/${qid}`];
  if (!c) return;
  for (const b of document.querySelectorAll("button.gcell.selected")) b.classList.remove("selected");
  const b = $("grid-table").querySelector(`button.gcell[data-row="${row}"][data-q="${CSS.escape(qid)}"]`);
  if (b) b.classList.add("selected");
  const q = grid.questions.find((x) => x.id === qid);
  const r = grid.rows[row];
  const head = `Grid cell “${q ? q.question : qid}”: ${c.answer || c.status}`;
  if (c.status === "error" || !c.doc_id || !(c.quote_spans.length || c.top_spans.length)) {
    $("doc-title").textContent = r.agreement;
    $("doc-note").textContent = `${head} (${r.file || r.agreement}) — ${c.status}: ${c.reason}`;
    $("doc-note").hidden = false;
    return;
  }
  const spans = c.quote_spans.length ? c.quote_spans : c.top_spans;
  const what = c.quote_spans.length ? `answered${c.clause ? `, clause ${c.clause}` : ""}`
    : `${c.status}, no verified quote: marked is the passage the grid read first`;
  openDocument(c.doc_id, spans.map((s) => s[0]), spans.map((s) => s[1]), `grid-${row}-${qid}`, `${head} (${what})`);
}

// A turn runs on the server, not in the page: after a reload (or on a second tab) the page asks
// /state for the session's latest job and, while it runs, re-opens its event stream, which
// replays the progress so far and then continues; the report appears when it is done. The
// session's latest grid is re-attached the same way (its events replay the cells so far); after a
// server restart it is read back with its stored cells, and a grid the restart stopped can be resumed.
refresh().then((st) => {
  if (st.grid) lastGridId = st.grid.id;
  if (location.hash === "#grid" || (st.grid && (!st.grid.done || st.grid.state === "interrupted"))) setMode("grid");
  if (st.job && !st.job.done) {
    $("progress").innerHTML = "";
    progress("Re-attached to the question still running on the server");
    follow(st.job.id);
  } else {
    document.body.dataset.idle = "1";
  }
});

// Playbook review (issue #44): the agreements chosen for the grid against an uploaded playbook.
$("review-form").onsubmit = (e) => {
  e.preventDefault();
  const f = $("review-playbook").files[0];
  if (!f) { showError("Choose a playbook file (YAML).", false); return; }
  const body = new FormData();
  body.append("playbook", f);
  const boxes = Array.from($("grid-agreements").querySelectorAll("input"));
  const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
  if (!chosen.length) { showError("Choose at least one agreement.", false); return; }
  if (chosen.length < boxes.length) for (const d of chosen) body.append("agreements", d);
  run(async () => {
    const data = await postForm(`/s/${sid}/review`, body);
    const box = $("review-result");
    box.replaceChildren(el("p", "", `Reviewed against ${data.playbook}:`));
    const table = el("table", "grid-table");
    const head = el("tr");
    for (const h of ["agreement", "compliant", "deviation", "missing", "unclear"]) head.append(el("th", "", h));
    table.append(head);
    for (const a of data.agreements) {
      const tr = el("tr");
      tr.append(el("td", "", a.agreement + (a.error ? ` (error: ${a.error})` : "")));
      for (const k of ["compliant", "deviation", "missing", "unclear"]) tr.append(el("td", "", String(a.counts[k] || 0)));
      table.append(tr);
    }
    box.append(table);
    const links = el("p", "downloads", "Download: ");
    for (const [k, url] of Object.entries(data.files)) {
      const a = el("a", "", k.toUpperCase()); a.href = url; a.target = "_blank"; links.append(a, " · ");
    }
    for (const [label, url] of Object.entries(data.redlines)) {
      const a = el("a", "", `redline: ${label}`); a.href = url; links.append(a, " · ");
    }
    box.append(links);
    box.hidden = false;
    document.body.dataset.idle = "1";
  });
};
