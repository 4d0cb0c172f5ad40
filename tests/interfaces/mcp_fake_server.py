"""Start the clauselens MCP server over stdio with the deterministic fake model (for
test_mcp.py). Usage: python mcp_fake_server.py CACHE_DIR ROOT_DIR"""

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/, for fakes.py (last: its folders must not shadow packages)
sys.path.insert(1, str(Path(__file__).resolve().parents[2]))  # this checkout's clauselens, not another install's

from fakes import ContractFakeChatModel  # noqa: E402

from clauselens.config import RetrievalSettings, Settings  # noqa: E402
from clauselens.interfaces.commands import build_service  # noqa: E402
from clauselens.interfaces.mcp_server import create_mcp_server  # noqa: E402

if __name__ == "__main__":
    settings = Settings(cache_dir=Path(sys.argv[1]), retrieval=RetrievalSettings(embedder="none"))
    service = build_service(settings, models=ContractFakeChatModel())
    create_mcp_server(service, roots=(Path(sys.argv[2]),)).run()
