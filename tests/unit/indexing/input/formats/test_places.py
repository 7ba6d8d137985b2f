"""Heading paths and page ranges of spans of a document's text."""

from __future__ import annotations

from graphrag_neo4j.indexing.input.formats.places import heading_places, locate, section_span
from graphrag_neo4j.indexing.records import Place

TEXT = """# Install
Run it.
```
# not a heading (code)
```
## Upgrading **now**
Press [u](keys.html).
# Remove
Press minus.
"""


def test_heading_paths_skip_code_and_decoration() -> None:
    places = heading_places(TEXT)
    assert [p.section for p in places] == ["Install", "Install > Upgrading now", "Remove"]
    assert [TEXT[p.start:].split("\n")[0] for p in places] == [
        "# Install", "## Upgrading **now**", "# Remove"]


def test_a_span_gets_the_section_it_starts_in_and_every_page_it_touches() -> None:
    places = heading_places("a" * 30, pages=[(0, 1), (10, 2), (20, 5)])
    assert locate(places, 0, 5) == ((1, 1), "")
    assert locate(places, 5, 25) == ((1, 5), "")
    assert locate(places, 10, 20) == ((2, 2), "")
    assert locate((), 0, 10) == (None, "")
    sections = heading_places(TEXT)
    upgrading = TEXT.index("Press [u]")
    assert locate(sections, upgrading, len(TEXT)) == (None, "Install > Upgrading now")
    assert locate(sections, 0, 3) == (None, "Install")


def test_pages_and_headings_merge_into_one_list_in_text_order() -> None:
    text = "# A\nx\n\n# B\ny\n"
    places = heading_places(text, pages=[(0, 1), (text.index("# B"), 2)])
    assert places == (Place(0, 1, "A"), Place(text.index("# B"), 2, "B"))
    assert section_span(places, "B", len(text)) == [(text.index("# B"), len(text))]
