"""Rebuilds the git manual corpus (pages/) from Debian's git-doc package.

  .venv/bin/python benchmarks/data/git-manual/build.py [--deb git-doc_*.deb]

Without --deb it runs `apt-get download git-doc` in a scratch folder (after `apt-get update`).
The corpus is the manual's command pages (`git-*.html`) under 40 KB each, verbatim: 126 pages of
Debian 12's git-doc 1:2.39.5, about 3 MB. The pages are the git project's documentation,
GPL-2 (see COPYRIGHT, copied from the package).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAX_PAGE_BYTES = 40 * 1024
DOC = Path("usr/share/doc/git-doc")


def download(folder: Path) -> Path:
    """The git-doc package, fetched with apt into `folder`."""
    subprocess.run(["apt-get", "download", "git-doc"], cwd=folder, check=True)
    return next(folder.glob("git-doc_*.deb"))


def build(deb: Path) -> int:
    """Unpack `deb` and copy the selected pages; returns how many were copied."""
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["dpkg-deb", "-x", str(deb), scratch], check=True)
        doc = Path(scratch) / DOC
        pages = sorted(p for p in doc.glob("git-*.html") if p.stat().st_size < MAX_PAGE_BYTES)
        target = HERE / "pages"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir()
        for page in pages:
            shutil.copyfile(page, target / page.name)
        shutil.copyfile(doc / "copyright", HERE / "COPYRIGHT")
    return len(pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deb", type=Path, help="a git-doc .deb already downloaded")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        deb = args.deb or download(Path(folder))
        print(f"{build(deb)} pages in {HERE / 'pages'}")


if __name__ == "__main__":
    main()
