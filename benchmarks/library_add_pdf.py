"""Add throughput of text PDFs into a library, by stage (issue #42: text-PDF add >= 20 pages/s).

``Library.add`` of the 21 CUAD PDFs (``../shared/data/cuad/full_contract_pdf``, 349 pages; two are
scans with an OCR text layer) into a fresh library with the defaults of a new local library
(tantivy segments, float16 vectors), parsed as ``clauselens library add`` parses with the document
store off (``parse_file`` with the settings' OCR and PDF engine). Each stage is timed inside the
one ``add`` by wrapping the function that does it (wall and process CPU seconds):

* ``text_layer``: :func:`clauselens.parsing.pdf.extract_pdf` (PDFium characters, the hidden-text
  checks and rendered visibility, line grouping, columns, furniture);
* ``document``: the rest of ``parse_file`` (clause tree, defined terms, cross-references, metadata);
* ``chunk``: :func:`clauselens.library.passages.library_passages`;
* ``embed``: the embedder's ``embed_passages`` (MiniLM, ``--threads`` torch threads; ``none``: no vectors);
* ``index``: everything else of the add (analyser tokens, catalogue, tantivy segment and commit,
  vectors written, copy detection).

Pages per second of a stage = all pages / that stage's seconds; of the add = all pages / the add's.

``--baseline REV --rounds N`` compares this tree with revision ``REV`` side by side: the baseline's
``clauselens/`` (``git archive``; with ``--baseline-paths``, this tree's with only those files as of
``REV``) and this tree each run the whole add in a fresh process, taking
turns N times (the order reversed every other round); reported per side the runs, their median
pages per CPU-second, and the paired ratio tree/baseline of add CPU seconds (mean, 95 % t-interval
over the N pairs).

``--tree-workers 1 2`` adds this tree with PDF worker processes as a further side of ``--baseline``
(side ``tree_w2``): wall and CPU pages/s of the serial and the parallel path in one run, against the
baseline; ``--baseline`` also extracts every real PDF under ``../shared`` and ``examples/`` and the
generated PDFs of :data:`GENERATED_SEEDS` with both trees and lists the files whose page texts,
methods, furniture or warnings differ (``same_text_as_baseline``: ``real`` and ``generated``).

``--workers 1 2 --rounds N`` compares PDFium pages read in this process (``CLAUSELENS_PDF_WORKERS=1``)
with pages read in 2 worker processes, each side a fresh process, taking turns N times: wall
pages/s and CPU pages/s counting the workers' CPU (``add_cpu_all_s``: the pool is shut down after
the add so its processes' CPU is in ``RUSAGE_CHILDREN``), the paired ratios; and, once, every
real PDF under ``../shared`` and ``examples/`` extracted both ways with the page texts, methods,
furniture and warnings compared (``same_text``).

    flock /tmp/clauselens-heavy.lock nice -n 5 env OMP_NUM_THREADS=1 .venv/bin/python -m \\
        benchmarks.library_add_pdf --embedder minilm --threads 1 --label minilm_t1
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Sequence

REPO = Path(__file__).resolve().parents[1]
CUAD_PDF = REPO.parent / "shared" / "data" / "cuad" / "full_contract_pdf"
OUT = REPO / "benchmarks" / "results" / "library_add_pdf.json"
STAGES = ("text_layer", "document", "chunk", "embed", "index")


class Clock:
    """Wall and CPU seconds spent inside wrapped functions, per stage (not counting nested stages twice)."""

    def __init__(self) -> None:
        self.wall = dict.fromkeys(STAGES, 0.0)
        self.cpu = dict.fromkeys(STAGES, 0.0)

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*a: Any, **kw: Any) -> Any:
            w, c = time.perf_counter(), time.process_time()
            try:
                return fn(*a, **kw)
            finally:
                self.wall[stage] += time.perf_counter() - w
                self.cpu[stage] += time.process_time() - c
        return timed


def pdf_files() -> list[Path]:
    return sorted(p for p in CUAD_PDF.rglob("*") if p.suffix.lower() == ".pdf")


def run(files: Sequence[Path], embedder: str, threads: int) -> dict:
    import torch

    import clauselens.library.indexing as indexing
    import clauselens.parsing.loader as loader
    from clauselens.config import Settings
    from clauselens.library import Library
    from clauselens.parsing.pdf import pdf_page_count
    from clauselens.parsing.store import parse_file

    torch.set_num_threads(threads)
    settings = Settings()
    clock = Clock()
    loader.extract_pdf = clock.wrap("text_layer", loader.extract_pdf)  # type: ignore[assignment]
    indexing.library_passages = clock.wrap("chunk", indexing.library_passages)  # type: ignore[assignment]
    pages = {p.name: pdf_page_count(p) for p in files}
    with tempfile.TemporaryDirectory(prefix="add-pdf-") as tmp:
        from clauselens.retrieval.embedders import load_embedder

        emb = None if embedder == "none" else load_embedder(embedder)  # uncached: every passage is embedded
        lib = Library.open(Path(tmp) / "lib", embedder_name=embedder, embedder=emb)
        if lib.embedder is not None:
            lib.embedder.embed_queries(["warm up"])  # the model load is not part of the add
            lib.embedder.embed_passages = clock.wrap("embed", lib.embedder.embed_passages)

        def load(p: Path) -> Any:
            return parse_file(p, ocr=settings.ocr, ocr_dpi=settings.ocr_dpi, pdf_engine=settings.pdf_engine)

        parse = clock.wrap("document", load)  # includes text_layer: subtracted below
        load_avg = os.getloadavg()[0]
        import resource

        import clauselens.parsing.pdf as pdf

        ch0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0, c0 = time.perf_counter(), time.process_time()
        rep = lib.add(list(files), load=parse)
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        if pdf._POOL is not None:  # its processes' CPU is counted once they have ended
            pdf._POOL.shutdown()
            pdf._POOL = None
        ch1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu_children = (ch1.ru_utime + ch1.ru_stime) - (ch0.ru_utime + ch0.ru_stime)
        lexical = type(lib.lexical).__name__
        vectors = type(lib.vectors).__name__
    for d in (clock.wall, clock.cpu):
        d["document"] -= d["text_layer"]
    clock.wall["index"] = wall - sum(v for k, v in clock.wall.items() if k != "index")
    clock.cpu["index"] = cpu - sum(v for k, v in clock.cpu.items() if k != "index")
    n = sum(pages.values())
    return {
        "files": len(files), "pages": n, "added": len(rep.added), "failed": rep.failed, "passages": rep.passages,
        "embedder": embedder, "torch_threads": threads, "lexical": lexical, "vectors": vectors,
        "pdf_engine": settings.pdf_engine, "ocr": settings.ocr,
        "add_wall_s": round(wall, 2), "add_cpu_s": round(cpu, 2),
        "pages_per_wall_s": round(n / wall, 2), "pages_per_cpu_s": round(n / cpu, 2),
        "pdf_workers": getattr(pdf, "pdf_workers", lambda: pdf.PDF_WORKERS)(), "add_cpu_all_s": round(cpu + cpu_children, 2),
        "pages_per_cpu_all_s": round(n / (cpu + cpu_children), 2),
        "stages": {s: {"wall_s": round(clock.wall[s], 2), "cpu_s": round(clock.cpu[s], 2),
                       "pages_per_wall_s": round(n / clock.wall[s], 1) if clock.wall[s] > 0 else None,
                       "pages_per_cpu_s": round(n / clock.cpu[s], 1) if clock.cpu[s] > 0 else None} for s in STAGES},
        "parse_pages_per_cpu_s": round(n / (clock.cpu["text_layer"] + clock.cpu["document"]), 1),
        "load_1min_before": round(load_avg, 2), "load_1min_after": round(os.getloadavg()[0], 2),
    }


def _baseline_tree(base: Path, rev: str, paths: Sequence[str]) -> None:
    """The baseline under ``base``: ``rev``'s ``clauselens/``; with ``paths``, this tree's
    ``clauselens/`` with only those files as of ``rev`` (other people's changes on both sides)."""
    import io
    import shutil
    import tarfile

    if not paths:
        blob = subprocess.run(["git", "-C", str(REPO), "archive", rev, "clauselens"], capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(blob)) as tf:
            tf.extractall(base, filter="data")
    else:
        shutil.copytree(REPO / "clauselens", base / "clauselens", ignore=shutil.ignore_patterns("__pycache__"))
        for rel in paths:
            old = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{rel}"], capture_output=True, check=True).stdout
            (base / rel).write_bytes(old)
    (base / "examples").symlink_to(REPO / "examples")  # the same example PDFs on both sides of the text comparison
    (base / "benchmarks").mkdir(parents=True, exist_ok=True)
    for f in ("__init__.py", "library_add_pdf.py"):
        shutil.copy(REPO / "benchmarks" / f, base / "benchmarks" / f)


def side_by_side(rev: str, rounds: int, embedder: str, threads: int, paths: Sequence[str] = (),
                 tree_workers: Sequence[int] = (1,)) -> dict:
    """This tree against ``rev`` (module docstring), each run a child process; the tree once per
    ``tree_workers`` PDF worker count (side ``tree`` = 1 worker, ``tree_w2`` = 2, ...), the sides
    taking turns (order reversed every other round). Also every real PDF (:func:`real_pdfs`)
    extracted by both trees, page texts, methods, furniture and warnings compared."""
    import statistics

    from scipy.stats import t as student

    sides = ["baseline", *("tree" if w == 1 else f"tree_w{w}" for w in tree_workers)]
    workers = {"baseline": 1, **{("tree" if w == 1 else f"tree_w{w}"): w for w in tree_workers}}
    runs: dict[str, list[dict]] = {k: [] for k in sides}
    with tempfile.TemporaryDirectory(prefix="add-pdf-ab-") as tmp:
        base = Path(tmp) / "repo"
        _baseline_tree(base, rev, paths)
        (Path(tmp) / "shared").symlink_to(REPO.parent / "shared")  # the baseline finds the data beside it
        for i in range(rounds):
            for side in sides if i % 2 == 0 else sides[::-1]:
                root = base if side == "baseline" else REPO
                out = Path(tmp) / f"{side}{i}.json"
                env = {**os.environ, "PYTHONPATH": str(root), "CLAUSELENS_PDF_WORKERS": str(workers[side])}
                code = "import clauselens, sys; sys.exit(0 if clauselens.__file__.startswith(sys.argv[1]) else 1)"
                subprocess.run([sys.executable, "-c", code, str(root)], cwd=root, env=env, check=True)
                subprocess.run([sys.executable, "-m", "benchmarks.library_add_pdf", "--embedder", embedder, "--threads",
                                str(threads), "--label", "x", "--out", str(out)], cwd=root, env=env, check=True,
                               stdout=subprocess.DEVNULL)
                runs[side].append(json.loads(out.read_text())["runs"]["x"])
                r = runs[side][-1]
                print(f"[library_add_pdf] round {i + 1} {side}: {r['pages_per_wall_s']} pages/s wall, "
                      f"{r['pages_per_cpu_all_s']} pages/CPU-s", file=sys.stderr)
        texts = {}
        generated = Path(tmp) / "generated"
        generated_pdfs(generated)
        for side, root in (("baseline", base), ("tree", REPO)):
            dump = Path(tmp) / f"texts_{side}.json"
            subprocess.run([sys.executable, "-m", "benchmarks.library_add_pdf", "--dump-texts", str(dump),
                            "--extra-pdfs", str(generated)], cwd=root,
                           env={**os.environ, "PYTHONPATH": str(root), "CLAUSELENS_PDF_WORKERS": "1"}, check=True,
                           stdout=subprocess.DEVNULL)
            texts[side] = json.loads(dump.read_text())
    ratios: dict[str, Any] = {}
    for side in sides[1:]:
        for k in ("add_wall_s", "add_cpu_s", "add_cpu_all_s"):
            rs = [b[k] / a[k] for a, b in zip(runs["baseline"], runs[side])]
            m = statistics.mean(rs)
            h = float(student.ppf(0.975, len(rs) - 1) * statistics.stdev(rs) / len(rs) ** 0.5) if len(rs) > 1 else 0.0
            ratios.setdefault(side, {})[k] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)], "n_pairs": len(rs)}
    med = {k: {m: statistics.median(r[m] if m in r else r["stages"]["text_layer"]["pages_per_cpu_s"] for r in v)
               for m in ("pages_per_wall_s", "pages_per_cpu_s", "pages_per_cpu_all_s", "text_layer")}
           for k, v in runs.items()}
    return {"baseline": rev, "baseline_paths": list(paths) or "all of clauselens/", "rounds": rounds, "runs": runs,
            "pdf_workers": workers, "median": med, "ratio_to_baseline": ratios,
            "same_text_as_baseline": {
                kind: {"files": len(sel), "pages": sum(len(texts["tree"][k][0]) for k in sel if isinstance(texts["tree"][k][0], list)),
                       "differ": sorted(k for k in sel if texts["tree"][k] != texts["baseline"].get(k))}
                for kind, sel in (("real", [k for k in texts["tree"] if not k.startswith("generated/")]),
                                  ("generated", [k for k in texts["tree"] if k.startswith("generated/")]))}}


#: Generated PDFs whose extraction ``--baseline`` compares too: ``benchmarks/robustness_fresh.py`` seeds and
#: ``tests/parsing/robustness_gen.py`` seeds (hidden text, columns, numbering, misnamed files), without scans.
GENERATED_SEEDS = {"fresh": (500, 501, 502, 503), "gen": (1, 2, 3)}


def generated_pdfs(folder: Path) -> None:
    """Write the :data:`GENERATED_SEEDS` cases under ``folder`` (one subfolder per set and seed)."""
    from benchmarks import robustness_fresh as fresh
    from tests.parsing import robustness_gen as gen

    for name, mod in (("fresh", fresh), ("gen", gen)):
        for seed in GENERATED_SEEDS[name]:
            d = folder / f"{name}_{seed}"
            d.mkdir(parents=True, exist_ok=True)
            for case in mod.make_cases(seed, scans=False):
                case.make(d)


def dump_texts(out: Path, extra: Path | None = None) -> None:
    """Every real PDF (:func:`real_pdfs`), and every ``*.pdf`` under ``extra`` (key ``generated/...``),
    extracted: ``{path: [[[text, method, furniture] per page], warnings]}`` or ``[error class, message]``."""
    from clauselens.errors import ClauselensError
    from clauselens.parsing.pdf import extract_pdf

    files = [(str(p.relative_to(REPO) if p.is_relative_to(REPO) else p.relative_to(REPO.parent)), p) for p in real_pdfs()]
    if extra is not None:
        files += [("generated/" + str(p.relative_to(extra)), p) for p in sorted(extra.rglob("*.pdf"))]
    got: dict[str, Any] = {}
    for key, p in files:
        try:
            pages, warns = extract_pdf(p)
            got[key] = [[[x.text, x.method, x.furniture] for x in pages], warns]
        except ClauselensError as e:
            got[key] = [type(e).__name__, str(e)]
    out.write_text(json.dumps(got), encoding="utf-8")


def real_pdfs() -> list[Path]:
    """Every PDF under ``../shared`` (CUAD, scanned contracts, robustness files) and ``examples/``."""
    found = [*REPO.parent.joinpath("shared").rglob("*"), *(REPO / "examples").rglob("*")]
    return sorted({p for p in found if p.suffix.lower() == ".pdf" and p.is_file()})


def same_text(files: Sequence[Path], workers: int) -> dict:
    """Extract each file with PDFium pages read here and in ``workers`` processes; compare."""
    import clauselens.parsing.pdf as pdf
    from clauselens.errors import ClauselensError

    def read(p: Path, w: int) -> Any:
        pdf.PDF_WORKERS = w
        try:
            pages, warns = pdf.extract_pdf(p)
            return [(x.text, x.method, x.furniture) for x in pages], warns
        except ClauselensError as e:
            return type(e).__name__, str(e)

    differ, pages = [], 0
    for p in files:
        a, b = read(p, 1), read(p, workers)
        pages += len(a[0]) if isinstance(a[0], list) else 0
        if a != b:
            differ.append(str(p.relative_to(REPO.parent)))
    return {"files": len(files), "pages": pages, "differ": differ}


def workers_side_by_side(workers: Sequence[int], rounds: int) -> dict:
    """``--workers`` (module docstring): each side a child process, taking turns."""
    import statistics

    from scipy.stats import t as student

    runs: dict[str, list[dict]] = {str(w): [] for w in workers}
    with tempfile.TemporaryDirectory(prefix="add-pdf-w-") as tmp:
        for i in range(rounds):
            for w in workers if i % 2 == 0 else workers[::-1]:
                out = Path(tmp) / f"w{w}_{i}.json"
                subprocess.run([sys.executable, "-m", "benchmarks.library_add_pdf", "--embedder", "none", "--label", "x",
                                "--out", str(out)], cwd=REPO, env={**os.environ, "CLAUSELENS_PDF_WORKERS": str(w)},
                               check=True, stdout=subprocess.DEVNULL)
                runs[str(w)].append(json.loads(out.read_text())["runs"]["x"])
                r = runs[str(w)][-1]
                print(f"[library_add_pdf] round {i + 1} workers {w}: {r['pages_per_wall_s']} pages/s wall, "
                      f"{r['pages_per_cpu_all_s']} pages/CPU-s", file=sys.stderr)
    ref = str(workers[0])
    ratios: dict[str, Any] = {}
    for w in map(str, workers[1:]):
        for k in ("add_wall_s", "add_cpu_all_s"):
            rs = [b[k] / a[k] for a, b in zip(runs[ref], runs[w])]
            m = statistics.mean(rs)
            h = float(student.ppf(0.975, len(rs) - 1) * statistics.stdev(rs) / len(rs) ** 0.5) if len(rs) > 1 else 0.0
            ratios.setdefault(w, {})[k] = {"mean": round(m, 3), "ci95": [round(m - h, 3), round(m + h, 3)], "n_pairs": len(rs)}
    return {"workers": list(workers), "rounds": rounds, "runs": runs,
            "median_pages_per_wall_s": {k: statistics.median(r["pages_per_wall_s"] for r in v) for k, v in runs.items()},
            "median_pages_per_cpu_all_s": {k: statistics.median(r["pages_per_cpu_all_s"] for r in v) for k, v in runs.items()},
            "ratio_to_" + ref: ratios, "same_text": same_text(real_pdfs(), max(workers))}


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--embedder", default="minilm", help="minilm, or none (no vectors)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads for the embedding")
    ap.add_argument("--label", default=None, help="key of this run in the results file (default: embedder_tN)")
    ap.add_argument("--baseline", default=None, help="git revision to compare this tree with, side by side")
    ap.add_argument("--baseline-paths", nargs="*", default=(),
                    help="with --baseline: this tree with only these files as of the baseline revision")
    ap.add_argument("--rounds", type=int, default=3, help="runs per side with --baseline")
    ap.add_argument("--workers", type=int, nargs="*", default=(),
                    help="PDF worker processes to compare side by side (e.g. 1 2; no embedding)")
    ap.add_argument("--tree-workers", type=int, nargs="*", default=(1,),
                    help="with --baseline: PDF worker counts this tree runs with, each a side (e.g. 1 2)")
    ap.add_argument("--dump-texts", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--extra-pdfs", type=Path, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    if a.dump_texts:
        dump_texts(a.dump_texts, a.extra_pdfs)
        return
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    if a.workers:
        res = workers_side_by_side(a.workers, a.rounds)
    elif a.baseline:
        res = side_by_side(a.baseline, a.rounds, a.embedder, a.threads, a.baseline_paths, a.tree_workers)
    else:
        res = run(pdf_files(), a.embedder, a.threads)
    from importlib.metadata import version

    res.update({"date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "cpus": os.cpu_count(),
                "python": platform.python_version(), "versions": {k: version(k) for k in ("pypdfium2", "pdfplumber", "tantivy",
                                                                                            "torch", "sentence-transformers")},
                "command": " ".join(["python", "-m", "benchmarks.library_add_pdf", *(argv if argv is not None else sys.argv[1:])]),
                "clauselens_commit": subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                                                    capture_output=True, text=True).stdout.strip()})
    out: dict[str, Any] = json.loads(a.out.read_text()) if a.out.exists() else {
        "benchmark": "library_add_pdf", "issue": 42, "data": "the 21 CUAD PDFs of ../shared/data/cuad (349 pages)",
        "method": __doc__.split("\n\n")[1:4], "runs": {}}
    out["runs"][a.label or f"{a.embedder}_t{a.threads}"] = res
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
