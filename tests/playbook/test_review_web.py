"""The web UI's playbook review (issue #44): upload a contract, review it against a playbook, fetch the files."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from clauselens.config import RetrievalSettings, Settings
from clauselens.interfaces.commands import build_service
from clauselens.interfaces.web.app import create_app

from .test_review import CCA, needs_cuad

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "playbooks"


@pytest.fixture
def client(tmp_path: Path):  # type: ignore[no-untyped-def]
    service = build_service(Settings(cache_dir=tmp_path, retrieval=RetrievalSettings(embedder="none")))
    with TestClient(create_app(service)) as c:
        yield c


def _sid(client) -> str:  # type: ignore[no-untyped-def]
    return client.get("/", follow_redirects=False).headers["location"].rsplit("/", 1)[-1]


@needs_cuad
def test_review_from_the_page(client) -> None:  # type: ignore[no-untyped-def]
    sid = _sid(client)
    assert 'id="review-form"' in client.get(f"/s/{sid}").text  # the form next to the grid
    r = client.post(f"/s/{sid}/review", files={"playbook": ("p.yaml", (EXAMPLES / "supply_services.yaml").read_bytes())})
    assert r.status_code == 400 and "no documents" in r.json()["error"]
    up = client.post(f"/s/{sid}/upload", files={"file": (CCA.name, CCA.read_bytes())})
    assert up.status_code == 200, up.text
    r = client.post(f"/s/{sid}/review", files={"playbook": ("supply.yaml", (EXAMPLES / "supply_services.yaml").read_bytes())})
    assert r.status_code == 200, r.text
    data = r.json()
    (a,) = data["agreements"]
    law = next(p for p in a["positions"] if p["id"] == "governing_law")
    assert law["outcome"] == "deviation" and law["value"] == "New Jersey"
    assert client.get(data["files"]["html"]).status_code == 200
    docx = client.get(next(iter(data["redlines"].values())))
    assert docx.status_code == 200 and docx.content[:2] == b"PK"
    assert client.get(f"/s/{sid}/review/{data['review']}/..%2Fsecret").status_code == 404
    bad = client.post(f"/s/{sid}/review", files={"playbook": ("bad.yaml", b"name: x\npositions:\n  - id: a\n    topic: [oops\n")})
    assert bad.status_code == 400 and "bad.yaml, line 5: not valid YAML" in bad.json()["error"]
