"""Keep the README and docs/ alive (issue #43): offline, no model, a few seconds.

- README.md stays at most 300 lines (the five-minute read the issue asks for);
- every relative link and image in README.md and docs/*.md points to a file that exists, and a
  ``#anchor`` to a heading of that Markdown file (GitHub's heading slugs);
- every ``clauselens ...`` line in the code (blocks and spans) of README.md and docs/*.md names
  commands and options the typer app has (checked against its click command tree, not by running anything);
- every ``make X`` in the README's code blocks is a target of the Makefile.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer.main

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
REQUIRED_DOCS = ("BENCHMARKS", "LIBRARY", "GRID", "TRUST", "ROBUSTNESS", "DEPLOY", "DESIGN")
MAX_README_LINES = 300

_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_FENCE = re.compile(r"^(```|~~~)")


def _strip_code(text: str) -> str:
    """The text outside fenced code blocks and inline code spans (links there are not links)."""
    out, in_fence = [], False
    for line in text.splitlines():
        if _FENCE.match(line.strip()):
            in_fence = not in_fence
            continue
        if not in_fence:
            out.append(re.sub(r"`[^`]*`", "", line))
    return "\n".join(out)


def github_slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(md: Path) -> set[str]:
    """Every heading anchor of a Markdown file (duplicates get -1, -2, ... as on GitHub)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    in_fence = False
    for line in md.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line.strip()):
            in_fence = not in_fence
            continue
        m = None if in_fence else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = github_slug(m.group(1))
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def broken_links(md: Path) -> list[str]:
    """The relative links of ``md`` whose file or heading anchor does not exist."""
    bad = []
    for target in _LINK.findall(_strip_code(md.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # http:, https:, mailto:
            continue
        path_part, _, anchor = target.partition("#")
        dest = (md.parent / path_part).resolve() if path_part else md
        if not dest.exists():
            bad.append(f"{md.name}: {target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            bad.append(f"{md.name}: {target} (no such heading)")
    return bad


def readme_code_lines(md: Path = README) -> list[str]:
    """A Markdown file's shell lines in fenced code blocks, continuations joined, comments kept."""
    lines, in_fence, buf = [], False, ""
    for line in md.read_text(encoding="utf-8").splitlines():
        if _FENCE.match(line.strip()):
            in_fence = not in_fence
            continue
        if not in_fence:
            continue
        if line.rstrip().endswith("\\"):
            buf += line.rstrip()[:-1] + " "
            continue
        lines.append(buf + line)
        buf = ""
    return lines


def readme_inline_commands(md: Path = README) -> list[str]:
    """Inline code spans of a Markdown file's prose that are clauselens command lines."""
    prose = re.sub(r"^(```|~~~).*?^(```|~~~)", "", md.read_text(encoding="utf-8"), flags=re.M | re.S)
    return [span for span in re.findall(r"`([^`]+)`", prose) if re.match(r"(\.venv/bin/)?clauselens\s", span)]


def _cli_tree() -> Any:
    from clauselens.cli import app

    return typer.main.get_command(app)


def _subcommands(cmd: Any) -> dict[str, Any] | None:
    """A group's subcommands, None for a leaf command (typer's groups need not subclass click.Group)."""
    commands = getattr(cmd, "commands", None)
    return commands if isinstance(commands, dict) else None


def command_problems(line: str, root: Any) -> list[str]:
    """What in a ``clauselens ...`` command line the CLI does not have (empty when all is known)."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError as exc:
        return [f"{line!r}: cannot be split ({exc})"]
    if not words or Path(words[0]).name != "clauselens":
        return []
    cmd, rest = root, words[1:]
    while _subcommands(cmd) is not None and rest and not rest[0].startswith("-"):
        sub = (_subcommands(cmd) or {}).get(rest[0])
        if sub is None:
            return [f"{line!r}: no command {rest[0]!r}"]
        cmd, rest = sub, rest[1:]
    if _subcommands(cmd) is not None:
        return [f"{line!r}: {cmd.name!r} needs a subcommand"]
    known = {"--help"}
    for param in cmd.params:
        known.update(param.opts)
        known.update(param.secondary_opts)
    problems = []
    for word in rest:
        if word.startswith("-") and word != "-":
            name = word.split("=", 1)[0]
            if name not in known:
                problems.append(f"{line!r}: {cmd.name} has no option {name}")
    return problems


def test_required_docs_exist() -> None:
    names = {p.stem for p in DOCS}
    assert not set(REQUIRED_DOCS) - names


def test_readme_is_short() -> None:
    n = len(README.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_README_LINES, f"README.md has {n} lines; move detail to docs/"


@pytest.mark.parametrize("md", [README, *DOCS], ids=lambda p: p.name)
def test_relative_links_resolve(md: Path) -> None:
    assert broken_links(md) == []


def test_link_checker_catches_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Real heading\n", encoding="utf-8")
    md = tmp_path / "page.md"
    md.write_text(
        "[ok](other.md#real-heading) [gone](missing.md) [bad](other.md#nope) `[code](not-a-link.md)` [web](https://example.org)\n",
        encoding="utf-8",
    )
    assert broken_links(md) == ["page.md: missing.md (no such file)", "page.md: other.md#nope (no such heading)"]


def test_github_slug_matches_github() -> None:
    assert github_slug("Trust — issue #19's failure cases") == "trust--issue-19s-failure-cases"
    assert github_slug("Known limits") == "known-limits"


def test_readme_commands_exist() -> None:
    root = _cli_tree()
    lines = [ln for ln in readme_code_lines() if re.match(r"\s*(\.venv/bin/)?clauselens\s", ln)]
    lines += readme_inline_commands()
    assert len(lines) >= 10, "the README's tour should show the clauselens commands"
    problems = [p for ln in lines for p in command_problems(ln, root)]
    assert problems == []
    shown = {shlex.split(ln, comments=True)[1] for ln in lines}
    assert {"ingest", "ask", "library", "chat", "serve", "grid"} <= shown


@pytest.mark.parametrize("md", DOCS, ids=lambda p: p.name)
def test_docs_commands_exist(md: Path) -> None:
    root = _cli_tree()
    lines = [ln for ln in readme_code_lines(md) if re.match(r"\s*(\.venv/bin/)?clauselens\s", ln)]
    lines += readme_inline_commands(md)
    assert [p for ln in lines for p in command_problems(ln, root)] == []


def test_command_checker_catches_unknown_names() -> None:
    root = _cli_tree()
    assert command_problems("clauselens library add x --library five", root) == []
    assert command_problems("clauselens library frobnicate x", root)
    assert command_problems("clauselens ask a.pdf 'q' --no-such-option", root)


def test_readme_make_targets_exist() -> None:
    targets = set(re.findall(r"^([\w.-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
    used = {m.group(1) for ln in readme_code_lines() if (m := re.match(r"\s*make\s+([\w.-]+)", ln))}
    assert {"demo", "test"} <= used
    assert used <= targets
