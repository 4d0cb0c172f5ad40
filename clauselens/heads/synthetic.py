"""Synthetic lay questions for contract passages, written by the bundled 1.5B (issue #39).

InPars (Bonifacio et al. 2022) / GPL (Wang et al. 2022): when no labelled queries of the target
distribution exist, a generative model writes queries for sampled passages, the pairs are filtered
by round-trip retrieval, and a reranker is trained on them. Here the target is the product's
question register -- a non-lawyer client asking about an agreement in everyday words -- so the
prompt asks for 2-3 such questions per passage, in other words than the passage's own key terms.
The prompt is written once, from that description alone (no evaluation or dev question is read).

This module holds the prompt, the JSON schema of the reply, reply parsing, the near-copy filter and
the resumable JSONL runner; it takes the model as a ``complete(messages, seed) -> str`` callable
(tests pass a fake). :func:`llama_complete` makes one from ``llama_cpp.Llama`` with the reply
constrained by the schema (llama.cpp's JSON-schema grammar). The passages to write for are sampled
by ``python -m clauselens.library.answerability_data --sample-synthetic`` (``train_allowed.txt``
agreements only); the round-trip filter and the training groups are built there too.

    flock /tmp/clauselens-llm.lock nice -n 5 .venv/bin/python -m clauselens.heads.synthetic \\
        --items ~/.cache/clauselens/synth/items.jsonl --out ~/.cache/clauselens/synth/questions.jsonl --minutes 28

Measured (benchmarks/results/reranker_head_synthetic_manifest.json): 146 passages, 422 questions, 133
near copies and 7 generic ones dropped, 7 more by the round trip (k 30); 235 of the 275 kept have
their source in their agreement's top 5 -- easier than the dev sets' lay paraphrases. With one more rule
(the client's situation, asked as by someone who has not read the contract; reranker_head_synthetic_manifest_s17.json):
643 passages in 70 minutes, 1,889 questions, 544 near copies and 65 generic ones dropped, 47 more by the round trip;
1,067 of the 1,233 kept have their source in the top 5.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from clauselens.errors import ClauselensError

CACHE = Path.home() / ".cache" / "clauselens" / "synth"
MODEL_FILE = Path.home() / ".cache" / "clauselens" / "models" / "qwen2.5-coder-1.5b.gguf"

#: The instructions come first and the passage last, so llama.cpp reuses the cached prefix and reads
#: only the passage's tokens per call (the machine is shared: prompt reading is most of the cost).
SYSTEM = """You help build a search engine for contracts. Given a passage of a contract, you write {n} different
questions that a business client with no legal training would ask and that the passage answers.
Rules:
- Everyday words, the way the client would say it. Do not reuse the passage's legal terms, defined terms or headings:
  describe the situation in plain words instead.
- Each question is about what this passage says, not about the contract in general.
- Ask about the situation or worry of the client that this passage settles, as someone who has not read the
  contract would.
- Do not quote the passage. No section numbers. Call the parties "we", "they", "the supplier", "the customer", "the
  company" and so on.
- Vary the form: a yes/no question, a "what happens if" question, a "who" or "how long" or "how much" question.
- Each question is one sentence of at most 20 words.
Reply in JSON: {{"questions": ["...", "..."]}}"""

USER = "Passage:\n{passage}"

def questions_schema(min_items: int, max_items: int, max_length: int) -> dict[str, Any]:
    """The JSON schema of a reply ``{"questions": [...]}`` (llama.cpp holds the reply to it)."""
    return {"type": "object",
            "properties": {"questions": {"type": "array", "items": {"type": "string", "maxLength": max_length},
                                         "minItems": min_items, "maxItems": max_items}},
            "required": ["questions"]}


SCHEMA: dict[str, Any] = questions_schema(2, 3, 200)

MAX_PASSAGE_CHARS = 900

Complete = Callable[[list[dict[str, str]], int], str]

_STOP = frozenset("""a an the and or of to in on for by with at from as is are be been being was were will shall may
must can could would should do does did not no any all this that these those it its their they them we our us you
your he she his her which who whom what when where why how if than then there such other into under upon about
after before between during per each either neither nor so""".split())


class SyntheticReplyError(ClauselensError):
    """The generator's reply held no usable question."""


def messages(passage: str, n: int = 3) -> list[dict[str, str]]:
    """The chat messages asking for ``n`` lay questions about ``passage``."""
    return [{"role": "system", "content": SYSTEM.format(n=n)},
            {"role": "user", "content": USER.format(passage=passage.strip()[:MAX_PASSAGE_CHARS])}]


def parse_reply(text: str) -> list[str]:
    """The questions of one JSON reply: trimmed, one line, ending in '?', 4-30 words, no duplicates.

    Raises:
        SyntheticReplyError: the reply is not JSON with a ``questions`` list, or none is usable.
    """
    try:
        data = json.loads(text, strict=False)  # llama.cpp's grammar can let a raw newline into a string
    except json.JSONDecodeError as e:
        raise SyntheticReplyError(f"reply is not JSON ({e.msg}): {text[:80]!r}") from e
    qs = data.get("questions") if isinstance(data, dict) else None
    if not isinstance(qs, list):
        raise SyntheticReplyError(f"reply has no 'questions' list: {text[:80]!r}")
    out: list[str] = []
    seen: set[str] = set()
    for q in qs:
        if not isinstance(q, str):
            continue
        q = re.sub(r"\s+", " ", q).strip().strip('"').strip()
        if not q:
            continue
        if not q.endswith("?"):
            q = q.rstrip(".!") + "?"
        n_words = len(q.split())
        key = q.lower()
        if 4 <= n_words <= 30 and key not in seen:
            seen.add(key)
            out.append(q)
    if not out:
        raise SyntheticReplyError(f"no usable question in reply: {text[:80]!r}")
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def near_copy(question: str, passage: str, ngram: int = 5, share: float = 0.85) -> bool:
    """True when ``question`` copies ``passage``: it shares a run of ``ngram`` words with it, or at
    least ``share`` of its content words (not stop words, 4+ letters) occur in it."""
    q, p = _words(question), _words(passage)
    grams = {tuple(p[i:i + ngram]) for i in range(len(p) - ngram + 1)}
    if any(tuple(q[i:i + ngram]) in grams for i in range(len(q) - ngram + 1)):
        return True
    content = [w for w in q if len(w) >= 4 and w not in _STOP]
    if len(content) < 3:
        return False
    pw = set(p)
    return sum(w in pw for w in content) / len(content) >= share


def done_ids(out: Path) -> set[str]:
    """Ids of the items already in ``out`` (the runner's resume point)."""
    if not out.exists():
        return set()
    ids = set()
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            ids.add(json.loads(line)["id"])
        except (json.JSONDecodeError, KeyError):
            continue  # a line cut by a killed run: that item is written again
    return ids


def run(items: Iterable[dict[str, Any]], complete: Complete, out: Path, *, minutes: float | None = None,
        limit: int | None = None, n: int = 3, log: Callable[[str], None] | None = None,
        make_messages: Callable[[dict[str, Any]], list[dict[str, str]]] | None = None,
        near_copies: bool = True, name: str = "synthetic") -> dict[str, Any]:
    """Write questions for every item (``{"id", "text", ...}``) not yet in ``out``, one JSON line per
    item with its questions, the ones kept (not near copies of the item's text, when ``near_copies``)
    and the reply time; stop after ``minutes`` or ``limit`` items. Resumable: items already in ``out``
    are skipped. ``make_messages`` builds an item's prompt (default: :func:`messages` of its passage)."""
    done = done_ids(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    stats = {"items": 0, "questions": 0, "kept": 0, "near_copies": 0, "bad_replies": 0, "seconds": 0.0}
    with open(out, "a", encoding="utf-8") as f:
        for item in items:
            if item["id"] in done:
                continue
            if (limit is not None and stats["items"] >= limit) or (
                    minutes is not None and time.perf_counter() - t0 > minutes * 60):
                break
            t1 = time.perf_counter()
            msgs = make_messages(item) if make_messages is not None else messages(item["text"], n)
            raw = complete(msgs, zlib.crc32(item["id"].encode()) % (1 << 31))
            sec = round(time.perf_counter() - t1, 2)
            try:
                qs = parse_reply(raw)
                err = None
            except SyntheticReplyError as e:
                qs, err = [], str(e)
                stats["bad_replies"] += 1
            kept = [q for q in qs if not near_copies or not near_copy(q, item["text"])]
            stats["items"] += 1
            stats["questions"] += len(qs)
            stats["kept"] += len(kept)
            stats["near_copies"] += len(qs) - len(kept)
            rec = {k: v for k, v in item.items() if k != "text"}
            f.write(json.dumps({**rec, "questions": qs, "kept": kept, "error": err, "seconds": sec}) + "\n")
            f.flush()
            if log and stats["items"] % 10 == 0:
                el = time.perf_counter() - t0
                log(f"[{name}] {stats['items']} items, {stats['kept']} questions kept, "
                    f"{stats['items'] / el * 60:.1f} items/min")
    stats["seconds"] = round(time.perf_counter() - t0, 1)
    return stats


def llama_complete(model_path: Path = MODEL_FILE, *, n_threads: int = 1, n_ctx: int = 2048,
                   temperature: float = 0.7, max_tokens: int = 200, schema: dict[str, Any] | None = None) -> Complete:
    """A ``complete`` callable over ``llama_cpp.Llama`` with the reply held to ``schema`` (default :data:`SCHEMA`)."""
    if not model_path.is_file():
        raise ClauselensError(f"model file not found: {model_path} (run scripts/setup.sh, which joins the bundled 1.5B)")
    from llama_cpp import Llama

    llm = Llama(model_path=str(model_path), n_ctx=n_ctx, n_threads=n_threads, n_threads_batch=n_threads, verbose=False)

    def complete(msgs: list[dict[str, str]], seed: int) -> str:
        llm.set_seed(seed)
        out = llm.create_chat_completion(messages=msgs, temperature=temperature, max_tokens=max_tokens,  # type: ignore[arg-type]
                                         response_format={"type": "json_object", "schema": schema or SCHEMA})
        return str(out["choices"][0]["message"]["content"] or "")  # type: ignore[index]

    return complete


def read_items(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        raise ClauselensError(f"no passages file {path}: write it with python -m clauselens.library.answerability_data "
                              "--sample-synthetic")
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--items", type=Path, default=CACHE / "items.jsonl")
    ap.add_argument("--out", type=Path, default=CACHE / "questions.jsonl")
    ap.add_argument("--model", type=Path, default=MODEL_FILE)
    ap.add_argument("--minutes", type=float, default=28.0, help="stop after this long (resumable; the LLM slot's limit)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many passages this run")
    ap.add_argument("--threads", type=int, default=1,
                    help="llama.cpp threads; on the shared 2-core machine (load ~4) 1 thread wrote 4.9 passages/min "
                         "(138 passages), 2 threads 1.1-1.5 (8 passages): ggml's thread barriers stall under contention")
    ap.add_argument("--temperature", type=float, default=0.7)
    args = ap.parse_args(argv)
    items = read_items(args.items)
    complete = llama_complete(args.model, n_threads=args.threads, temperature=args.temperature)
    stats = run(items, complete, args.out, minutes=args.minutes, limit=args.limit,
                log=lambda s: print(s, file=sys.stderr, flush=True))
    stats["rate_passages_per_min"] = round(stats["items"] / max(1e-9, stats["seconds"]) * 60, 2)
    stats["remaining"] = len(items) - len(done_ids(args.out))
    print(json.dumps(stats))


if __name__ == "__main__":
    main()
