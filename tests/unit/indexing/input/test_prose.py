"""Prose masking: code, URLs, tables and front matter are blanked, lengths and lines kept."""

from __future__ import annotations

from graphrag_neo4j.indexing.input.prose import prose_of, prose_of_pieces

MARKDOWN = """---
title: Graph RAG
tags: [neo4j]
---
# Loading

Alice Smith wrote the loader in `load_graph(path)` at https://example.com/docs today.

```python
NEO4J_PASSWORD = os.environ["NEO4J_PASSWORD"]
print(list(set(entity['name'])))
```

| name | type |
|------|------|
| Bob  | person |

See [the guide](https://example.com/guide) by Carol Jones.
"""


def test_code_urls_tables_and_front_matter_are_blanked_with_lines_kept() -> None:
    prose = prose_of(MARKDOWN)
    assert len(prose) == len(MARKDOWN)
    assert prose.count("\n") == MARKDOWN.count("\n")
    words = prose.split()
    for junk in ("title:", "NEO4J_PASSWORD", "print(list(set(entity['name'])))",
                 "`load_graph(path)`", "https://example.com/docs", "|", "Bob",
                 "(https://example.com/guide)"):
        assert junk not in words, junk
    assert "Alice Smith wrote the loader in" in " ".join(words)
    assert "See [the guide] by Carol Jones." in " ".join(words)
    assert "# Loading" in prose


def test_a_fence_open_at_the_end_of_a_piece_masks_the_next_piece() -> None:
    first, second = prose_of_pieces(
        ["Intro text.\n```\nRETURN n\n", "MATCH (n) RETURN n\n```\nAfter."])
    assert "RETURN" not in first
    assert "MATCH" not in second and "RETURN" not in second
    assert "After." in second


def test_plain_prose_is_unchanged() -> None:
    text = "Ebenezer Scrooge kept a counting-house in London.\n\nBob Cratchit worked there."
    assert prose_of(text) == text


def test_indented_code_is_blanked_but_an_indented_wrap_continues_its_paragraph() -> None:
    text = ("  Ebenezer Scrooge, a grasping, covetous old man, the surviving partner\n"
            "    of the firm of Scrooge and Marley.\n"
            "\n"
            "    connect(uri, password)\n"
            "# Setup\n"
            "    NEO4J_PASSWORD = secret\n")
    words = " ".join(prose_of(text).split())
    assert "the surviving partner of the firm of Scrooge and Marley." in words
    assert "connect(uri," not in words and "NEO4J_PASSWORD" not in words


# Written from other tools' manuals and --help texts than the git manual the fix came from.
SYNOPSES = """\
ssh [-46AaCfGgKkMNnqsTtVvXxYy] [-B <bind_interface>] [-l <login_name>] <destination>
Usage: rsync [OPTION]... <SRC> [<SRC>]... <DEST>
Run docker run --name <container name> <image> to start it; see <https://docs.example.org>.
Copy each <source> to <dest>, then pass the <file>... to tar -cf <archive>.
The curl option --cert <certificate[:password]> takes a <file name> and an optional password.
Set --track-fds=<yes|no|all> and listen on <host:port> for <N> seconds on <host\\_name>.
"""


def test_argument_placeholders_are_prose_in_synopses_and_sentences() -> None:
    prose = prose_of(SYNOPSES)
    for placeholder in ("<bind_interface>", "<login_name>", "<destination>", "<SRC>", "<DEST>",
                        "<container name>", "<image>", "<source>", "<dest>", "<file>...",
                        "<archive>", "<file name>", "<yes|no|all>", "<host:port>", "<N>",
                        "<host\\_name>"):
        assert placeholder in prose, placeholder
    assert "https://docs.example.org" not in prose  # an autolink is no placeholder


def test_html_tags_are_still_masked_when_closed_attributed_or_bare_void() -> None:
    text = ('A <b>bold</b> word, <span class="x">styled</span>, a break<br> and<br/> a '
            '<a href="https://example.com">link</a>; mail <me@example.org>.\n'
            '<details>\n<summary>More</summary>\nHidden <em>text</em>.\n</details>\n')
    prose = prose_of(text)
    assert len(prose) == len(text) and prose.count("\n") == text.count("\n")
    assert "<" not in prose and ">" not in prose
    assert "bold" in prose and "styled" in prose and "link" in prose and "More" in prose
