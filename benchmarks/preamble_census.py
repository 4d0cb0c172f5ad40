"""Which of the 462 CUAD texts' preamble readings (parties, party aliases, effective date) a change to
``clauselens/parsing/metadata.py`` or ``clauselens/parsing/parties.py`` alters, against the files at a base commit -- and
whether any is an agreement of the clause-QA dev sets (``../shared/data/clause-qa-dev``, ``../shared/data/clause-qa-lay``).
No model, no library. Run::

    .venv/bin/python -m benchmarks.preamble_census --base e3000ac
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from clauselens.parsing import metadata as new
from clauselens.parsing import parties as new_parties

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "data" / "legalbench-rag" / "corpus" / "cuad"
QA = [ROOT.parent / "shared" / "data" / d / "questions.jsonl" for d in ("clause-qa-dev", "clause-qa-lay")]


def _load(name: str, src: str) -> Any:
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(src)
    spec = importlib.util.spec_from_file_location(name, f.name)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def base_modules(base: str) -> tuple[Any, Any]:
    """The base commit's party reader and metadata module (before the split into ``parties.py`` both were ``metadata.py``)."""
    def show(path: str) -> str | None:
        r = subprocess.run(["git", "show", f"{base}:{path}"], cwd=ROOT, capture_output=True, text=True)
        return r.stdout if r.returncode == 0 else None

    psrc = show("clauselens/parsing/parties.py")
    msrc = show("clauselens/parsing/metadata.py")
    assert msrc is not None, f"{base} has no clauselens/parsing/metadata.py"
    if psrc is None:
        old = _load("base_metadata", msrc)
        return old, old
    parties = _load("base_parties", psrc)
    return parties, _load("base_metadata", msrc.replace("from clauselens.parsing.parties import", "from base_parties import"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True)
    args = ap.parse_args()
    old_parties, old = base_modules(args.base)
    qa = {json.loads(line).get("agreement_file", "").split("/")[-1] for p in QA if p.exists() for line in p.open()}
    changed = []
    files = sorted(CORPUS.glob("*.txt"))
    for p in files:
        text = p.read_text(errors="ignore")
        head = text[:3000]
        before = [old_parties.guess_parties(head)]
        after = [new_parties.guess_parties(head)]
        before += [old_parties.guess_party_aliases(text, before[0]), old.guess_effective_date(head)]
        after += [new_parties.guess_party_aliases(text, after[0]), new.guess_effective_date(head)]
        if before != after:
            changed.append({"agreement": p.name, "clause_qa_agreement": p.name in qa, "parties": [before[0], after[0]] if before[0] != after[0]
                            else None, "aliases_changed": before[1] != after[1], "effective_date": [before[2], after[2]] if before[2] != after[2]
                            else None})
    print(json.dumps({"base": args.base, "texts": len(files), "changed": len(changed),
                      "clause_qa_agreements_changed": sum(c["clause_qa_agreement"] for c in changed), "rows": changed}, indent=1))


if __name__ == "__main__":
    main()
