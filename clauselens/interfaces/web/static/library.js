// clauselens web UI, the library room (issue #46; only in a `serve --library` page): the
// agreements as a server-side paged, filtered, sorted table; clause search whose hits open the
// page with the passage boxed; add (files or a zip, progress over SSE) and remove with a
// confirmation. Uses app.js's helpers ($, el, run, postForm, openDocument, showError, setMode).
"use strict";
const lib = { filter: "", sort: "added", desc: false, offset: 0, limit: 25, total: 0, scope: null, pendingRemove: null };

function setLibraryMode() {
  setMode("ask");  // resets the other modes
  document.body.classList.add("mode-library");
  $("mode-ask").setAttribute("aria-pressed", "false");
  $("mode-library").setAttribute("aria-pressed", "true");
  history.replaceState(null, "", "#library");
  loadAgreements();
}
$("mode-library").onclick = setLibraryMode;
$("open-library").onclick = (e) => { e.preventDefault(); setLibraryMode(); };

async function getJSON(url) {
  const r = await fetch(url);
  const data = await r.json().catch(() => ({ error: r.statusText }));
  if (!r.ok) throw new Error(data.error || data.detail || r.statusText);
  return data;
}

async function loadAgreements() {
  const q = new URLSearchParams({ filter: lib.filter, sort: lib.sort, desc: lib.desc, offset: lib.offset, limit: lib.limit });
  let p;
  try { p = await getJSON(`/s/${sid}/library/agreements?${q}`); } catch (e) { showError(e.message, false); return; }
  lib.total = p.total;
  $("lib-count").textContent = `${p.name} · ${p.library_total} agreements`;
  if ($("library-count")) $("library-count").textContent = `${p.library_total} agreements`;
  const tb = $("lib-rows");
  tb.innerHTML = "";
  if (!p.rows.length) {
    const tr = el("tr");
    const td = el("td", "muted empty", p.library_total ? "No agreement matches the filter." : "The library is empty: add agreements below.");
    td.colSpan = 8;
    tr.appendChild(td);
    tb.appendChild(tr);
  }
  const names = Object.fromEntries(p.rows.map((r) => [r.doc_id, r.title || r.file_name]));
  for (const r of p.rows) {
    const tr = el("tr");
    tr.dataset.doc = r.doc_id;
    const t = el("td", "lib-title");
    const a = el("a", "lib-open", r.title || r.file_name);
    a.href = "#";
    a.title = `Open ${r.file_name}`;
    a.onclick = (e) => { e.preventDefault(); openAgreement(r); };
    t.appendChild(a);
    t.appendChild(el("span", "lib-file muted", r.file_name));
    const links = [];
    if (r.copies.length) links.push(`copy of ${r.copies.length} other`);
    if (r.amends) links.push(`amends ${names[r.amends] || r.amends}`);
    if (r.amended_by.length) links.push(`amended by ${r.amended_by.length}`);
    if (links.length) t.appendChild(el("span", "lib-links", links.join(" · ")));
    tr.appendChild(t);
    tr.appendChild(el("td", "", r.parties.join(" / ") + (r.short_names.length ? ` (${r.short_names.join(", ")})` : "")));
    tr.appendChild(el("td", "", r.date || (r.year ? String(r.year) : "")));
    tr.appendChild(el("td", "", r.type));
    tr.appendChild(el("td", "num", r.pages ? String(r.pages) : "–"));
    tr.appendChild(el("td", "num", String(r.passages)));
    const added = new Date(r.added);
    tr.appendChild(el("td", "nowrap", isNaN(added) ? r.added : added.toLocaleDateString(undefined, { day: "numeric", month: "short", year: "numeric" })));
    const act = el("td", "lib-actions");
    const ask = el("button", "btn btn-small lib-ask", "Ask");
    ask.type = "button";
    ask.title = "Ask a question about this agreement";
    ask.onclick = () => askAbout(r);
    const find = el("button", "btn btn-small lib-scope-btn", "Search in");
    find.type = "button";
    find.onclick = () => { setScope(r); $("lib-q").focus(); };
    const rm = el("button", "btn btn-small btn-danger lib-remove", "Remove");
    rm.type = "button";
    rm.onclick = () => confirmRemove(r);
    act.append(ask, find, rm);
    tr.appendChild(act);
    tb.appendChild(tr);
  }
  const last = Math.min(p.offset + p.rows.length, p.total);
  $("lib-page-info").textContent = p.total ? `${p.offset + 1}–${last} of ${p.total}` : "0 of 0";
  $("lib-prev").disabled = p.offset <= 0;
  $("lib-next").disabled = last >= p.total;
  for (const th of document.querySelectorAll("#lib-table th[data-sort]")) {
    const on = th.dataset.sort === lib.sort;
    th.classList.toggle("sorted", on);
    th.setAttribute("aria-sort", on ? (lib.desc ? "descending" : "ascending") : "none");
  }
  document.body.dataset.libIdle = "1";
}

let filterTimer = null;
$("lib-filter").oninput = () => {
  clearTimeout(filterTimer);
  document.body.dataset.libIdle = "0";
  filterTimer = setTimeout(() => { lib.filter = $("lib-filter").value; lib.offset = 0; loadAgreements(); }, 250);
};
for (const th of document.querySelectorAll("#lib-table th[data-sort]")) {
  th.onclick = () => {
    lib.desc = lib.sort === th.dataset.sort ? !lib.desc : false;
    lib.sort = th.dataset.sort;
    lib.offset = 0;
    loadAgreements();
  };
}
$("lib-prev").onclick = () => { lib.offset = Math.max(0, lib.offset - lib.limit); loadAgreements(); };
$("lib-next").onclick = () => { lib.offset += lib.limit; loadAgreements(); };

// An agreement opens in the document view with its clause tree above it.
async function openAgreement(r) {
  await openDocument(r.doc_id, r.pages ? [0] : [], r.pages ? [1] : [], "", `${r.label} (${r.file_name})`);
  let a;
  try { a = await getJSON(`/s/${sid}/library/agreements/${encodeURIComponent(r.doc_id)}`); } catch (e) { return; }
  const ol = $("doc-outline-list");
  ol.innerHTML = "";
  for (const n of a.outline) {
    const li = el("li", `lvl-${Math.min(n.level, 4)}`);
    const link = el("a", "", [n.label, n.heading].filter(Boolean).join(" "));
    link.href = "#";
    link.onclick = (e) => { e.preventDefault(); openDocument(r.doc_id, [n.span[0]], [n.span[1]], "", `${r.title || r.file_name}: ${link.textContent}`); };
    li.appendChild(link);
    ol.appendChild(li);
  }
  $("doc-outline-head").textContent = `Clauses (${a.outline.length})`;
  $("doc-outline").hidden = !a.outline.length;
  $("doc-outline").open = true;
}

function askAbout(r) {
  const who = r.parties.length ? ` between ${r.parties.join(" and ")}` : "";
  setMode("ask");
  $("question").value = `In the ${r.title || r.file_name}${who}${r.year ? ` (${r.year})` : ""}: `;
  $("question").focus();
}

function setScope(r) {
  lib.scope = r;
  $("lib-scope-name").textContent = r.title || r.file_name;
  $("lib-scope").hidden = !r;
}
$("lib-scope-clear").onclick = () => { lib.scope = null; $("lib-scope").hidden = true; };

function confirmRemove(r) {
  lib.pendingRemove = r;
  $("lib-confirm-text").textContent = `Remove ${r.title || r.file_name} (${r.file_name}) from the library? Questions will no longer find it.`;
  $("lib-confirm").hidden = false;
}
$("lib-confirm-no").onclick = () => { lib.pendingRemove = null; $("lib-confirm").hidden = true; };
$("lib-confirm-yes").onclick = () => {
  const r = lib.pendingRemove;
  $("lib-confirm").hidden = true;
  if (!r) return;
  const body = new FormData();
  body.append("keys", r.doc_id);
  document.body.dataset.libIdle = "0";
  run(async () => { await postForm(`/s/${sid}/library/remove`, body); await loadAgreements(); document.body.dataset.idle = "1"; });
};

// Clause search: each hit shows agreement, clause, page, score and the passage with the matched
// words marked; it opens the page with the passage boxed, as a citation does.
$("lib-search-form").onsubmit = (e) => {
  e.preventDefault();
  const q = $("lib-q").value.trim();
  if (!q) { showError("Type what to search for.", false); return; }
  const params = new URLSearchParams({ q, k: 8 });
  if (lib.scope) params.set("agreement", lib.scope.doc_id);
  document.body.dataset.libIdle = "0";
  run(async () => {
    const res = await getJSON(`/s/${sid}/library/search?${params}`);
    renderHits(res);
    document.body.dataset.idle = "1";
    document.body.dataset.libIdle = "1";
  });
};

function markedText(text, marks) {
  const frag = document.createDocumentFragment();
  let pos = 0;
  for (const [s, e] of marks) {
    frag.appendChild(document.createTextNode(text.slice(pos, s)));
    frag.appendChild(el("mark", "", text.slice(s, e)));
    pos = e;
  }
  frag.appendChild(document.createTextNode(text.slice(pos)));
  return frag;
}

function renderHits(res) {
  const ol = $("lib-hits");
  ol.innerHTML = "";
  const note = $("lib-search-note");
  const st = res.resolution.status;
  note.textContent = res.abstained ? res.reason
    : st === "resolved" || st === "filtered" ? `Searched ${res.resolution.chosen.map((c) => c.label).join("; ")}`
      : st === "unnamed" ? "No agreement named: searched the whole library." : `Searched ${res.resolution.chosen.length} agreements the question could mean.`;
  note.hidden = false;
  for (const h of res.hits) {
    const li = el("li", "lib-hit");
    const head = el("a", "lib-hit-head");
    head.href = "#";
    const where = [h.agreement, h.clause, h.page ? `p. ${h.page}` : ""].filter(Boolean).join(" · ");
    head.appendChild(el("span", "where", where));
    head.appendChild(el("span", "score muted", `score ${h.score}`));
    head.onclick = (e) => {
      e.preventDefault();
      $("doc-outline").hidden = true;
      openDocument(h.doc_id, h.spans.map((s) => s[0]), h.spans.map((s) => s[1]), `lib-hit-${h.rank}`, `Search hit ${h.rank}: ${where}`);
    };
    li.appendChild(head);
    const p = el("p", "lib-hit-text");
    p.appendChild(markedText(h.text.length > 700 ? h.text.slice(0, 700) + " …" : h.text, h.marks.filter((m) => m[1] <= 700)));
    li.appendChild(p);
    const ask = el("button", "btn btn-small lib-hit-ask", "Ask about this agreement");
    ask.type = "button";
    ask.onclick = () => { setMode("ask"); $("question").value = `In the ${h.agreement}: `; $("question").focus(); };
    li.appendChild(ask);
    ol.appendChild(li);
  }
}

// Add: the files (or a zip) are uploaded, then the server adds them as a job whose progress
// streams over SSE (parse, add, index); the table reloads when it is done.
$("lib-add-form").onsubmit = (e) => {
  e.preventDefault();
  const files = $("lib-files").files;
  if (!files.length) { showError("Choose one or more files (or a .zip) first.", false); return; }
  const body = new FormData();
  for (const f of files) body.append("files", f);
  document.body.dataset.libIdle = "0";
  $("lib-add").disabled = true;
  $("lib-add-status").hidden = false;
  $("lib-add-failed").innerHTML = "";
  $("lib-add-text").textContent = `Uploading ${files.length} file${files.length === 1 ? "" : "s"}…`;
  run(async () => {
    const { job } = await postForm(`/s/${sid}/library/add`, body);
    followAdd(job);
  }).then(() => { if (!$("lib-add-status").dataset.job) $("lib-add").disabled = false; });
};

const STAGES = { parse: "Reading", add: "Adding", index: "Building the search index" };
function followAdd(job) {
  $("lib-add-status").dataset.job = job;
  const es = new EventSource(`/s/${sid}/jobs/${job}/events`);
  const on = (name, fn) => es.addEventListener(name, (e) => { if (e.data) fn(JSON.parse(e.data)); });
  on("library_progress", (ev) => {
    $("lib-add-bar").style.width = `${ev.total ? Math.round((100 * ev.done) / ev.total) : 0}%`;
    $("lib-add-text").textContent = `${STAGES[ev.stage] || ev.stage} ${ev.done} of ${ev.total}${ev.detail ? ` · ${ev.detail}` : ""}`;
  });
  on("library_added", (ev) => {
    const r = ev.report;
    $("lib-add-bar").style.width = "100%";
    $("lib-add-text").textContent = r.message;
    for (const f of r.failed) $("lib-add-failed").appendChild(el("li", "", f.message.includes(f.file_name) ? f.message : `${f.file_name}: ${f.message}`));
    $("lib-add-status").scrollIntoView({ block: "nearest" });
  });
  on("error", (ev) => showError(ev.message, false));
  on("done", async () => {
    es.close();
    delete $("lib-add-status").dataset.job;
    $("lib-add").disabled = false;
    $("lib-files").value = "";
    await loadAgreements();
    document.body.dataset.libIdle = "1";
  });
}

if (location.hash === "#library") setLibraryMode();
// an add still running (a reloaded page, a second tab of the session): follow its progress again
getJSON(`/s/${sid}/library/job`).then((j) => {
  if (j.job && !j.job.done) {
    $("lib-add").disabled = true;
    $("lib-add-status").hidden = false;
    followAdd(j.job.id);
  }
}).catch(() => {});
