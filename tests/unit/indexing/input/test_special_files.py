"""FIFOs, sockets and devices among the inputs are refused one by one, never opened (a FIFO
would wait for a writer forever)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from graphrag_neo4j.indexing.input.loaders import load_documents


@pytest.mark.timeout(30)
def test_non_regular_files_are_skipped_with_a_reason_and_counted(tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Euler was born in Basel.", encoding="utf-8")
    os.mkfifo(folder / "pipe.txt")
    (folder / "to-pipe.txt").symlink_to(folder / "pipe.txt")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(folder / "s.txt"))
        result = load_documents([folder, Path("/dev/zero")])
    assert [d.source for d in result.documents] == [str(folder / "a.txt")]
    reasons = sorted(skipped.reason for skipped in result.skipped)
    assert reasons == [
        "/dev/zero is a character device, not a regular file; not read. Copy its content"
        " into a file.",
        f"{folder}/pipe.txt is a named pipe (FIFO), not a regular file; not read. Copy its"
        " content into a file.",
        f"{folder}/s.txt is a socket, not a regular file; not read. Copy its content into a"
        " file.",
    ]  # the link to the FIFO is the FIFO itself: skipped once


def test_a_file_whose_name_is_not_utf8_is_skipped_with_a_reason(tmp_path: Path) -> None:
    """Its name would be the document's source and title, which Neo4j cannot store."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_text("Euler was born in Basel.", encoding="utf-8")
    Path(os.fsdecode(bytes(folder) + b"/caf\xe9.txt")).write_text("Euler moved to Berlin.")
    result = load_documents([folder])
    assert [d.source for d in result.documents] == [str(folder / "a.txt")]
    (skipped,) = result.skipped
    assert skipped.reason == (f"The name of {folder}/caf\\xe9.txt is not valid UTF-8 text (the"
                              f" byte \\xe9 at character {len(str(folder)) + 5}): rename the"
                              " file; it is not read.")
