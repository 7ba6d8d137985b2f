"""Small text files written for a test to index."""

from __future__ import annotations

from pathlib import Path


def write_texts(folder: Path, **texts: str) -> list[Path]:
    """`folder/NAME.txt` holding each text, in the order given."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in texts.items():
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths
