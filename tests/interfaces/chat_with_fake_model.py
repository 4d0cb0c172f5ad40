"""Run the terminal chat (the same :func:`clauselens.interfaces.chat.run_chat` as
``clauselens chat``) with the deterministic fake model of ``tests/fakes.py``, reading lines from
stdin. Used to record docs/examples/chat_transcript.md when the real model is too slow.

Usage: python chat_with_fake_model.py CACHE_DIR (FILE... | --resume ID)
"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/, for fakes.py (last: its folders must not shadow packages)

from fakes import ContractFakeChatModel  # noqa: E402
from rich.console import Console  # noqa: E402

from clauselens.config import RetrievalSettings, Settings  # noqa: E402
from clauselens.interfaces.chat import run_chat  # noqa: E402
from clauselens.interfaces.commands import _echoing_input, build_service  # noqa: E402

if __name__ == "__main__":
    cache, args = Path(sys.argv[1]), sys.argv[2:]
    service = build_service(Settings(cache_dir=cache, retrieval=RetrievalSettings(embedder="none")),
                            models=ContractFakeChatModel(calls=[]))
    if args[:1] == ["--resume"]:
        sid, resumed = args[1], True
    else:
        sid, resumed = service.new_session(), False
        service.ingest(sid, [Path(a) for a in args])
    run_chat(service, sid, console=Console(width=100), input_fn=_echoing_input, resumed=resumed)
