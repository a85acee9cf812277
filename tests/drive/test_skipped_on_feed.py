"""Files a run cannot read, on Drive's change feed (#26): each run that lists one (the first,
full listing) or sees it change (the feed's runs) names it with its reason, and an icon too small
to OCR is named in a warning each time it is read. The real google-api-python-client against the
fake Google server."""

from __future__ import annotations

import io
from urllib.parse import unquote

from PIL import Image

from ingest.runner.pipeline import RunSummary
from tests.drive.helpers import MD, drive_sync, md


def image(fmt: str, size: tuple[int, int], shade: int = 0) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (20 + shade, 60, 160)).save(out, format=fmt)
    return out.getvalue()


def on_the_feed(g, since: int) -> bool:
    """The run since request `since` read the changes feed and listed no folder."""
    paths = [unquote(path) for _, path in g.requests[since:]]
    return any("/changes?" in p for p in paths) and not any("in parents" in p for p in paths)


def named(summary: RunSummary) -> dict[str, str]:
    return {r.name: r.error for r in summary.skipped_files}


def test_every_run_that_sees_an_unreadable_file_names_it(tmp_path, fake_google):
    g = fake_google
    top = g.add_folder("Company")
    art = g.add_folder("Art", top)
    elsewhere = g.add_folder("Elsewhere")
    gif = g.add_file("logo.gif", art, image("GIF", (320, 200)), "image/gif")
    icon = g.add_file("favicon.png", art, image("PNG", (16, 16)), "image/png")
    g.add_file("leave.md", top, md("Leave", "Twenty days."), MD)
    webp = g.add_file("photo.webp", elsewhere, image("WEBP", (320, 200)), "image/webp")

    summary, results = drive_sync(tmp_path, g, top)  # the first run lists the whole tree
    assert summary.ok and named(summary) == {"Art/logo.gif": "no loader for .gif (image/gif)"}
    [warning] = results[icon].warnings
    assert results[icon].status == "changed" and "not OCRed: 16x16 pixels is too small" in warning

    # The feed's runs: a new version, a new name, a file moved in from outside the tree.
    g.update(gif, content=image("GIF", (320, 200), shade=5))
    g.update(icon, content=image("PNG", (16, 16), shade=5))
    before = len(g.requests)
    summary, results = drive_sync(tmp_path, g, top)
    assert on_the_feed(g, before)
    assert summary.ok and named(summary) == {"Art/logo.gif": "no loader for .gif (image/gif)"}
    assert summary.unchanged == 1 and results[icon].status == "changed"
    assert any("too small" in w for w in results[icon].warnings)

    g.update(gif, name="brand.gif")
    g.move(webp, art)
    before = len(g.requests)
    summary, _ = drive_sync(tmp_path, g, top)
    assert on_the_feed(g, before)
    assert named(summary) == {
        "Art/brand.gif": "no loader for .gif (image/gif)",
        "Art/photo.webp": "no loader for .webp (image/webp)",
    }
    assert summary.skipped == 2 and summary.changed == 0 and summary.failed == 0

    # Nothing changed: the feed lists nothing, and a run names what it saw (none of them).
    summary, _ = drive_sync(tmp_path, g, top)
    assert summary.ok and summary.skipped == 0 and summary.changed == 0
