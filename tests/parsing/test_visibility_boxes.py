"""The vectorised character-box ink test of :mod:`clauselens.parsing.visibility` (issue #42: PDF
add throughput) gives what the per-character loop it replaced gave: pixel boxes from the four
corners of each character under the page's affine map (truncated, clipped), "any ink inside" from
each box row's stretch of the mask (empty and off-render boxes never inked), and the ink mask of two
renders from their packed pixels."""

from __future__ import annotations

import numpy as np
import pytest

import clauselens.parsing.visibility as visibility
from clauselens.parsing.visibility import _any_in_boxes, _ink, _pixel_boxes


def _loop_box(affine, c, ox, top, w, h):  # the loop of the earlier mark_unshown
    o, ax, ay = affine

    def to_dev(x, y):
        return o[0] + ax[0] * x + ay[0] * y, o[1] + ax[1] * x + ay[1] * y

    corners = [to_dev(x + ox, top - y) for x in (c["x0"], c["x1"]) for y in (c["top"], c["bottom"])]
    return (max(int(min(p[0] for p in corners)), 0), min(int(max(p[0] for p in corners)) + 1, w),
            max(int(min(p[1] for p in corners)), 0), min(int(max(p[1] for p in corners)) + 1, h))


@pytest.mark.parametrize("rows_at_once", [visibility.MAX_BOX_ROWS, 7, 1])
def test_boxes_and_ink_match_the_per_character_loop(rows_at_once: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(visibility, "MAX_BOX_ROWS", rows_at_once)
    rng = np.random.default_rng(3)
    h, w = 120, 90
    mask = rng.random((h, w)) < 0.02
    affines = [((0.0, 120.0), (1.5, 0.0), (0.0, -1.5)),  # upright page at scale 1.5
               ((90.0, 0.0), (0.0, 1.5), (-1.5, 0.0)),  # /Rotate 90
               ((-3.2, 117.9), (1.25, 0.01), (0.02, -1.3))]
    chars = []
    for _ in range(400):
        x0, t = rng.uniform(-20, 80), rng.uniform(-20, 100)
        chars.append({"x0": x0, "x1": x0 + rng.uniform(0, 8), "top": t, "bottom": t + rng.uniform(0, 10)})
    for affine in affines:
        got = _pixel_boxes(affine, chars, 2.0, 80.0, w, h)
        want = [_loop_box(affine, c, 2.0, 80.0, w, h) for c in chars]
        assert got.tolist() == [list(b) for b in want]
        ink = _any_in_boxes(mask, got)
        brute = [x1 > x0 and y1 > y0 and bool(mask[y0:y1, x0:x1].any()) for x0, x1, y0, y1 in want]
        assert ink.tolist() == brute
        assert any(brute) and not all(brute) and any(x1 <= x0 or y1 <= y0 for x0, x1, y0, y1 in want)


def test_ink_mask_is_a_channel_difference_of_min_ink() -> None:
    rng = np.random.default_rng(5)
    bare = rng.integers(0, 256, (60, 80, 4), dtype=np.uint8)
    shown = bare.copy()
    pick = rng.random((60, 80)) < 0.3
    shown[pick, rng.integers(0, 4)] += rng.integers(0, 256, int(pick.sum()), dtype=np.uint8)  # some only in the unused x byte
    brute = np.abs(shown[:, :, :3].astype(np.int16) - bare[:, :, :3].astype(np.int16)).max(axis=2) >= visibility.MIN_INK
    for a, b, want in ((shown, bare, brute), (shown[5:50, 7:70], bare[5:50, 7:70], brute[5:50, 7:70])):  # crops are views
        got = _ink(a, b)
        assert got.shape == want.shape and np.array_equal(got, want)
    assert brute.any() and not brute.all()
