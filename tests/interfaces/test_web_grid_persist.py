"""Issue #19 ("a web run continues on the server and the page re-attaches after a reload"), for
grids across a server restart: a grid's definition is written to ``<session>/grid/grids/<id>.json``,
so a second app built over the same data directory lists the session's grids with their cells
from the cell store; a grid the "restart" stopped mid-run reads ``interrupted`` and resumes,
computing only its missing cells (the fake model's calls are counted); a corrupt grid file is
skipped with one warning naming it, and the session's other grids still load. The deterministic
fake model (``ContractFakeChatModel``); a restart is a second ``build_service`` + ``create_app``."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app
from tests.fakes import ContractFakeChatModel, schema_title

from .conftest import ROBUST, make_settings

QUESTIONS = "Which law governs this agreement?\nCan either party terminate this agreement on written notice?"
CONTRACTS = ("four_clause_contract.txt", "two_clause_contract.txt")


class ServerStopped(BaseException):
    """Not an ``Exception``: no handler of the grid catches it, as if the process had died."""


class StoppingChat(ContractFakeChatModel):
    """The fake model; its grid-cell call number ``stop_at`` raises :class:`ServerStopped`. One
    class for both servers, so both answer as the same model (the cells' fingerprints match)."""

    stop_at: int = 0
    cells: int = 0

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> Any:
        if schema_title(messages) == "CellAnswer":
            self.cells += 1
            if self.cells == self.stop_at:
                raise ServerStopped()
        return super()._generate(messages, stop=stop, run_manager=run_manager, **kwargs)


def _app(cache: Path, stop_at: int = 0) -> tuple[TestClient, StoppingChat]:
    """A "server" over the data directory ``cache``."""
    model = StoppingChat(calls=[], stop_at=stop_at)
    return TestClient(create_app(build_service(make_settings(cache), models=model), pick_dirs=(ROBUST,))), model


def _events(client: TestClient, sid: str, job: str) -> list[dict]:
    with client.stream("GET", f"/s/{sid}/jobs/{job}/events") as r:
        return [json.loads(line[6:]) for line in r.iter_lines() if line.startswith("data: ")]


def _session_with_contracts(client: TestClient) -> str:
    sid = client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]
    for name in CONTRACTS:
        r = client.post(f"/s/{sid}/pick", data={"path": str(ROBUST / name)})
        assert r.status_code == 200, r.text
    return sid


def _grid(client: TestClient, sid: str, questions: str = QUESTIONS) -> tuple[str, list[dict]]:
    r = client.post(f"/s/{sid}/grids", data={"questions": questions})
    assert r.status_code == 200, r.text
    gid = r.json()["grid"]
    return gid, _events(client, sid, gid)


def test_a_grid_is_listed_with_its_cells_after_a_restart(tmp_path):
    with _app(tmp_path)[0] as first:
        sid = _session_with_contracts(first)
        gid, evs = _grid(first, sid)
        assert evs[-2]["type"] == "grid_done"
        before = first.get(f"/s/{sid}/grids/{gid}").json()
        newer, _ = _grid(first, sid, "Which law governs this agreement?")  # its cells come from the first grid's
    assert before["progress"]["state"] == "done" and len(before["cells"]) == 4
    assert (tmp_path / "sessions" / sid / "grid" / "grids" / f"{gid}.json").is_file()

    second, model = _app(tmp_path)  # the restart: a new service and app over the same directory
    with second:
        assert second.get(f"/s/{sid}/state").json()["grid"] == {"id": newer, "state": "done", "done": True}  # the latest
        after = second.get(f"/s/{sid}/grids/{gid}").json()
        assert after["rows"] == before["rows"] and after["questions"] == before["questions"]
        assert after["cells"] == before["cells"] and after["created_utc"] == before["created_utc"]
        p, q = after["progress"], before["progress"]
        assert (p["state"], p["done"], p["total"], p["counts"], p["computed"]) == ("done", 4, 4, q["counts"], 4)
        law = before["questions"][0]["id"]
        assert second.get(f"/s/{sid}/grids/{gid}/cells/0/{law}").json()["answer"] == "Scotland"
        assert "Scotland" in second.get(f"/s/{sid}/grids/{gid}/export.csv").text
        r = second.post(f"/s/{sid}/grids/{gid}/resume")
        assert r.status_code == 400 and "only an interrupted or failed grid" in r.json()["error"]
        assert second.post(f"/s/{sid}/grids/nope/resume").status_code == 404
    assert model.cells == 0  # read back, nothing computed


def test_an_interrupted_grid_resumes_computing_only_the_missing_cells(tmp_path):
    first, stopping = _app(tmp_path, stop_at=2)  # the "server" dies during the second cell's model call
    with first:
        sid = _session_with_contracts(first)
        gid, evs = _grid(first, sid)
        assert "grid_done" not in [e["type"] for e in evs]
        assert first.get(f"/s/{sid}/grids/{gid}").json()["progress"]["state"] == "running"  # it never ended
    assert stopping.cells == 2

    second, model = _app(tmp_path)
    with second:
        st = second.get(f"/s/{sid}/state").json()
        assert st["grid"] == {"id": gid, "state": "interrupted", "done": True}
        snap = second.get(f"/s/{sid}/grids/{gid}").json()
        # one cell answered by the model and two decided without it (issue #45: the yes/no question read from
        # the contracts' own sentences) before the second model call
        assert snap["progress"]["state"] == "interrupted" and snap["progress"]["done"] == 3 and len(snap["cells"]) == 3
        r = second.post(f"/s/{sid}/grids/{gid}/resume")
        assert r.status_code == 200, r.text
        assert r.json() == {"grid": gid, "job": gid}
        evs = _events(second, sid, gid)
        done = evs[-2]
        assert done["type"] == "grid_done", evs[-3:]
        p = done["grid"]["progress"]
        assert (p["state"], p["done"], p["total"], p["reused"], p["computed"]) == ("done", 4, 4, 3, 1)
        assert model.cells == 1  # only the missing cell asked the model
        cells = second.get(f"/s/{sid}/grids/{gid}").json()["cells"]
        assert sorted(c["status"] for c in cells) == ["answered"] * 3 + ["not found"]

    with _app(tmp_path)[0] as third:  # and the finished grid is done after the next restart
        assert third.get(f"/s/{sid}/grids/{gid}").json()["progress"]["state"] == "done"


def test_a_corrupt_grid_file_is_skipped_with_one_warning(tmp_path, caplog):
    with _app(tmp_path)[0] as first:
        sid = _session_with_contracts(first)
        good, _ = _grid(first, sid, "Which law governs this agreement?")
        bad, _ = _grid(first, sid, "Can either party terminate this agreement on written notice?")
        other, _ = _grid(first, sid, "Which law governs this agreement? | text")
    folder = tmp_path / "sessions" / sid / "grid" / "grids"
    (folder / f"{bad}.json").write_text('{"version": 1, "id": "' + bad + '", "rows": [', encoding="utf-8")  # cut short
    (folder / f"{other}.json").write_text("{}", encoding="utf-8")  # JSON, but not a grid

    caplog.set_level(logging.WARNING, logger="clauselens.interfaces.grids")
    with _app(tmp_path)[0] as second:
        assert second.get(f"/s/{sid}/state").json()["grid"]["id"] == good  # the newest grid that could be read
        assert len(second.get(f"/s/{sid}/grids/{good}").json()["cells"]) == 2
        for gid in (bad, other):
            r = second.get(f"/s/{sid}/grids/{gid}")
            assert r.status_code == 404 and "its file is damaged" in r.json()["error"]
    warned = [r.getMessage() for r in caplog.records if r.name == "clauselens.interfaces.grids" and r.levelno == logging.WARNING]
    assert len(warned) == 2, warned  # one per bad file, however often it is asked for
    assert any(str(folder / f"{bad}.json") in w for w in warned) and any(str(folder / f"{other}.json") in w for w in warned)
