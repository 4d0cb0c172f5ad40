"""llama.cpp thread settings on an idle and on a contended CPU: prompt and generation tokens/s.

Usage::

    .venv/bin/python benchmarks/llm_threads.py [--model qwen2.5-coder-1.5b] [--reps 5]
        [--settings 1,1 2,2 1,2] [--prompt-tokens 600] [--gen-tokens 64] [--wait-for-jobs]
        [--out benchmarks/results/llm_threads.json]

For each ``(n_threads, n_threads_batch)`` setting one ``llama_cpp.Llama`` is built as
:func:`clauselens.llm.llamacpp_chat.shared_llama` builds it (n_ctx 4096; no AMX check needed to
measure). Per measurement: the KV cache is cleared, a fixed prompt (``--prompt-tokens`` tokens of a
real CUAD contract plus an instruction) is evaluated (``prompt_tok_s = prompt tokens / wall``), then
``--gen-tokens`` tokens are generated greedily (temperature 0: argmax of the logits, one
``eval`` per token; ``gen_tok_s = tokens / wall``; end-of-text is not a stop, so every run decodes
the same number of tokens).

Two conditions, measured side by side and interleaved (every repetition measures every setting
in both, the order rotating between repetitions): ``idle`` and ``contended`` — one competing
CPU-bound process (a Python busy loop started by this script at plain priority, bounded by
``--hog-max-s``, replaced if it ever exits early, killed at the end) that is ``SIGCONT``-ed for
contended measurements and ``SIGSTOP``-ped otherwise. Each measurement records the CPU seconds the
competitor and the rest of the machine used during it (``/proc``) and how many other heavy
benchmarks were running, since the VM is shared: compare numbers within this run
only. Medians per setting and condition, and ratios within the run, go to the JSON.

``--wait-for-jobs`` first polls every 60 s until no other heavy benchmark runs
(``benchmarks.clause_qa``, ``benchmarks.library_scale``, ``legalbench_rag.py``), giving up after
50 minutes (then it measures anyway and says so in ``note``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np
from llama_cpp import Llama

from clauselens.config import Settings
from clauselens.llm import ensure_model
from clauselens.provenance import run_provenance

CUAD_TXT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "cuad" / "full_contract_txt"
CONTRACT = "NEONSYSTEMSINC_03_01_1999-EX-10.5-DISTRIBUTOR AGREEMENT_New.txt"
INSTRUCTION = "\n\nList every clause of this agreement as a long numbered list, one sentence each:\n1."
# regexes written so that they do not match a shell command line that merely contains them
HEAVY_JOBS = ("benchmarks[.]clause_qa", "benchmarks[.]library_scale", "legalbench_rag[.]py")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def heavy_jobs_running() -> list[str]:
    """Command lines of other heavy benchmark processes (``pgrep -af``)."""
    out: list[str] = []
    for pat in HEAVY_JOBS:
        r = subprocess.run(["pgrep", "-af", pat], capture_output=True, text=True)
        out += [line for line in r.stdout.splitlines() if line.strip()]
    return out


def wait_for_jobs(poll_s: float = 60.0, max_s: float = 50 * 60) -> dict:
    """Poll until :func:`heavy_jobs_running` is empty or ``max_s`` passes; what happened."""
    t0 = time.monotonic()
    seen: list[str] = []
    while True:
        running = heavy_jobs_running()
        if not running:
            return {"waited_s": round(time.monotonic() - t0), "gave_up": False, "jobs_seen": sorted(set(seen))}
        seen += running
        if time.monotonic() - t0 >= max_s:
            return {"waited_s": round(time.monotonic() - t0), "gave_up": True, "jobs_seen": sorted(set(seen)),
                    "still_running": running}
        print(f"waiting for {len(running)} heavy job(s) ({time.monotonic() - t0:.0f} s)", file=sys.stderr)
        time.sleep(poll_s)


def cpu_busy_s() -> float:
    """Non-idle CPU seconds of the whole machine since boot (``/proc/stat``)."""
    with open("/proc/stat", encoding="ascii") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]  # idle + iowait
    return (sum(v[:8]) - idle) / CLK_TCK  # user..steal (guest is already in user)


def proc_cpu_s(pid: int) -> float:
    """utime + stime of one process, seconds."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def start_hog(max_s: float) -> subprocess.Popen:
    """A CPU-bound competitor (pure-Python busy loop, one core), stopped until needed; exits by
    itself after ``max_s`` seconds of wall time even if this script dies."""
    code = f"import time\nend = time.monotonic() + {max_s}\nwhile time.monotonic() < end:\n    pass\n"
    p = subprocess.Popen([sys.executable, "-c", code])
    os.kill(p.pid, signal.SIGSTOP)
    return p


def measure(llm: Llama, prompt: list[int], gen_tokens: int) -> dict:
    """Prompt evaluation then greedy generation from an empty KV cache; wall times and tokens/s."""
    n_vocab = llm.n_vocab()
    llm.reset()
    t0 = time.perf_counter()
    llm.eval(prompt)
    t1 = time.perf_counter()
    out: list[int] = []
    for _ in range(gen_tokens):
        logits = np.ctypeslib.as_array(llm._ctx.get_logits(), shape=(n_vocab,))
        tok = int(np.argmax(logits))
        out.append(tok)
        llm.eval([tok])
    t2 = time.perf_counter()
    return {"prompt_s": round(t1 - t0, 3), "prompt_tok_s": round(len(prompt) / (t1 - t0), 2),
            "gen_s": round(t2 - t1, 3), "gen_tok_s": round(gen_tokens / (t2 - t1), 2), "gen_ids": out}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-coder-1.5b")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--settings", nargs="+", default=["1,1", "2,2", "1,2"],
                    help="n_threads,n_threads_batch pairs")
    ap.add_argument("--prompt-tokens", type=int, default=600)
    ap.add_argument("--gen-tokens", type=int, default=64)
    ap.add_argument("--hog-max-s", type=float, default=4 * 3600.0)
    ap.add_argument("--wait-for-jobs", action="store_true")
    ap.add_argument("--note", action="append", default=[], help="a remark stored in the JSON's note list")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results" / "llm_threads.json")
    a = ap.parse_args(argv)
    settings = [tuple(int(x) for x in s.split(",")) for s in a.settings]

    notes: list[str] = list(a.note)
    wait = None
    if a.wait_for_jobs:
        wait = wait_for_jobs()
        if wait["gave_up"]:
            notes.append(f"other heavy jobs were still running after {wait['waited_s']} s of waiting; "
                         "measured anyway (the idle/contended comparison is side by side, so ratios still hold)")

    path = ensure_model(a.model, Settings().models_dir)
    llms = {s: Llama(model_path=str(path), n_ctx=4096, n_threads=s[0], n_threads_batch=s[1], seed=0, verbose=False)
            for s in settings}
    first = llms[settings[0]]
    text = (CUAD_TXT / CONTRACT).read_text(encoding="utf-8", errors="replace")
    instr = first.tokenize(INSTRUCTION.encode(), add_bos=False)
    body = first.tokenize(text.encode(), add_bos=False)[: a.prompt_tokens - len(instr)]
    prompt = body + instr
    for llm in llms.values():  # warm-up: page the weights in, build the compute graphs
        measure(llm, prompt[:64], 4)

    load_before = os.getloadavg()
    hog = start_hog(a.hog_max_s)
    rows: list[dict] = []
    try:
        for rep in range(a.reps):
            k = rep % len(settings)
            for s in settings[k:] + settings[:k]:
                conds = ("idle", "contended") if rep % 2 == 0 else ("contended", "idle")
                for cond in conds:
                    if hog.poll() is not None:  # ran past its time bound: a fresh one
                        hog = start_hog(a.hog_max_s)
                    heavy = len(heavy_jobs_running())
                    if cond == "contended":
                        os.kill(hog.pid, signal.SIGCONT)
                        time.sleep(0.5)
                    hog0, busy0, own0 = proc_cpu_s(hog.pid), cpu_busy_s(), time.process_time()
                    m = measure(llms[s], prompt, a.gen_tokens)
                    hog1, busy1, own1 = proc_cpu_s(hog.pid), cpu_busy_s(), time.process_time()
                    if cond == "contended":
                        os.kill(hog.pid, signal.SIGSTOP)
                    wall = m["prompt_s"] + m["gen_s"]
                    m.update(rep=rep, n_threads=s[0], n_threads_batch=s[1], condition=cond,
                             competitor_cpu_s=round(hog1 - hog0, 2), own_cpu_s=round(own1 - own0, 2),
                             others_cpu_s=round(max(0.0, (busy1 - busy0) - (hog1 - hog0) - (own1 - own0)), 2),
                             wall_s=round(wall, 2), loadavg_1=round(os.getloadavg()[0], 2), other_heavy_jobs=heavy)
                    rows.append(m)
                    print(f"rep {rep} {s} {cond:9s}: prompt {m['prompt_tok_s']:7.1f} tok/s, gen {m['gen_tok_s']:6.2f} tok/s "
                          f"(competitor {m['competitor_cpu_s']} s, others {m['others_cpu_s']} s of {wall:.1f} s)",
                          file=sys.stderr)
    finally:
        os.kill(hog.pid, signal.SIGCONT)
        hog.kill()
        hog.wait()

    same_text = len({tuple(r["gen_ids"]) for r in rows}) == 1
    for r in rows:
        del r["gen_ids"]
    summary = []
    for s in settings:
        entry: dict = {"n_threads": s[0], "n_threads_batch": s[1]}
        for cond in ("idle", "contended"):
            sel = [r for r in rows if (r["n_threads"], r["n_threads_batch"]) == s and r["condition"] == cond]
            entry[cond] = {"median_prompt_tok_s": round(statistics.median(r["prompt_tok_s"] for r in sel), 1),
                           "median_gen_tok_s": round(statistics.median(r["gen_tok_s"] for r in sel), 2),
                           "n": len(sel)}
        entry["contended_over_idle"] = {
            "prompt": round(entry["contended"]["median_prompt_tok_s"] / entry["idle"]["median_prompt_tok_s"], 3),
            "gen": round(entry["contended"]["median_gen_tok_s"] / entry["idle"]["median_gen_tok_s"], 3)}
        summary.append(entry)
    base = next((e for e in summary if (e["n_threads"], e["n_threads_batch"]) == (1, 1)), summary[0])
    for e in summary:  # each setting against (1, 1) in the same condition
        e["over_1_1"] = {c: {"prompt": round(e[c]["median_prompt_tok_s"] / base[c]["median_prompt_tok_s"], 3),
                             "gen": round(e[c]["median_gen_tok_s"] / base[c]["median_gen_tok_s"], 3)}
                         for c in ("idle", "contended")}

    report = {
        "benchmark": "llm_threads",
        "command": " ".join([os.path.relpath(sys.executable), *sys.argv]),
        "date_utc": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                    "cpus_available": len(os.sched_getaffinity(0)),
                    "loadavg_1_5_15_before": [round(x, 2) for x in load_before],
                    "loadavg_1_5_15_after": [round(x, 2) for x in os.getloadavg()],
                    "note": "shared VM: compare numbers within this file only"},
        "versions": run_provenance(["llama-cpp-python", "numpy"]),
        "wait_for_other_jobs": wait,
        "note": notes,
        "sample": {"model": a.model, "file": path.name, "contract": f"cuad/full_contract_txt/{CONTRACT}",
                   "prompt_tokens": len(prompt), "gen_tokens": a.gen_tokens, "n_ctx": 4096, "temperature": 0.0,
                   "seed": 0, "reps": a.reps,
                   "competitor": "one Python busy-loop process at plain priority, SIGCONT only for 'contended'",
                   "identical_generated_tokens_in_every_run": same_text},
        "summary": summary,
        "runs": rows,
    }
    a.out.parent.mkdir(parents=True, exist_ok=True)
    a.out.write_text(json.dumps(report, indent=2) + "\n")
    print(json.dumps([{k: e[k] for k in ("n_threads", "n_threads_batch", "idle", "contended")} for e in summary]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
