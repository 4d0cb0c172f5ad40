"""Schemas a model writes into (issue #43: moved here from ``reports/model.py``, since every agent's
structured output uses it, not only the report's): :class:`CappedModel` publishes list and string
limits as JSON-schema ``maxItems`` / ``maxLength`` (llama.cpp's grammar then cannot exceed them) and
enforces them on validation by truncation, trimming a cut prose field back to its last whole
sentence (:func:`whole_sentences`).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pydantic import BaseModel, model_validator

_SENTENCE_STOP = re.compile(r"[.!?;](?=[\s\"'’”)]|$)")


def whole_sentences(text: str) -> str:
    """``text`` (cut at a length limit) up to its last full sentence: through the last ``. ! ? ;``
    that ends a sentence, when that keeps at least a third of it; otherwise up to its last whole
    word, with " …" to show it was cut. Text that already ends a sentence is returned as is."""
    t = text.rstrip()
    if not t or t[-1] in ".!?;" or t.endswith((".\"", ".'", ".”", ".)")):
        return t
    ends = [m.end() for m in _SENTENCE_STOP.finditer(t)]
    if ends and ends[-1] >= len(t) / 3:
        return t[:ends[-1]].rstrip()
    room = t[:max(1, len(t) - 2)]  # the result is never longer than the text
    head = room.rsplit(None, 1)[0] if " " in room.strip() else room
    return head.rstrip(",;: ") + " …"


class CappedModel(BaseModel):
    """A model-facing schema whose list fields have a maximum length.

    ``caps`` (field -> n) is published as JSON-schema ``maxItems`` (llama.cpp's grammar then
    cannot emit more, which stops a small model from repeating one item until ``max_tokens``:
    seen with the 0.5B model on a query list) and enforced on validation by truncation, so a
    backend that ignores ``maxItems`` does not cost a retry.
    """

    caps: ClassVar[dict[str, int]] = {}
    #: string field -> n characters, published as JSON-schema ``maxLength`` (llama.cpp's grammar
    #: then ends the string there: stops a small model rambling in one field until ``max_tokens``
    #: cuts the JSON off, seen with the 0.5B model in a draft's ``legal_reasoning``) and enforced
    #: on validation by truncation. A truncated quote is a prefix of the model's quote, so it is
    #: still checked verbatim like any other.
    str_caps: ClassVar[dict[str, int]] = {}
    #: fields published as required (strings with ``minLength`` 1): a grammar-constrained model
    #: must write them, and llama.cpp's grammar writes required properties first, in schema order,
    #: before any optional one (seen: the 0.5B model skipped an optional ``answer``; the 1.5B
    #: model skipped optional ``findings``, so nothing was cited), while validation keeps
    #: their defaults so other backends are not failed for leaving them out.
    publish_required: ClassVar[tuple[str, ...]] = ()
    #: field -> n published as JSON-schema ``minItems`` only (a grammar-constrained model must
    #: fill the list; other backends are not failed for an empty list).
    mins: ClassVar[dict[str, int]] = {}

    #: prose fields cut by their ``str_caps`` (the grammar ends the string mid-sentence at
    #: ``maxLength``) are trimmed back to their last full sentence (:func:`whole_sentences`), so
    #: no section of a report ends mid-sentence (issue #19).
    sentence_fields: ClassVar[tuple[str, ...]] = ()

    @model_validator(mode="before")
    @classmethod
    def _truncate_lists(cls, data: Any) -> Any:
        if isinstance(data, dict):
            data = dict(data)
            for name, n in cls.caps.items():
                if isinstance(data.get(name), list):
                    data[name] = data[name][:n]
            for name, n in cls.str_caps.items():
                if isinstance(data.get(name), str):
                    cut = len(data[name]) >= n
                    data[name] = data[name][:n]
                    if cut and name in cls.sentence_fields:
                        data[name] = whole_sentences(data[name])
        return data

    @classmethod
    def __get_pydantic_json_schema__(cls, core_schema: Any, handler: Any) -> dict[str, Any]:
        js = handler(core_schema)
        target = handler.resolve_ref_schema(js)
        for name, n in cls.caps.items():
            if name in target.get("properties", {}):
                target["properties"][name]["maxItems"] = n
        for name, n in cls.mins.items():
            if name in target.get("properties", {}):
                target["properties"][name]["minItems"] = n
        for name, n in cls.str_caps.items():
            if name in target.get("properties", {}):
                target["properties"][name]["maxLength"] = n
        for name in cls.publish_required:
            if name in target.get("properties", {}):
                if target["properties"][name].get("type") == "string":
                    target["properties"][name]["minLength"] = 1
                req = target.setdefault("required", [])
                if name not in req:
                    req.append(name)
        return js


__all__ = ["CappedModel", "whole_sentences"]
