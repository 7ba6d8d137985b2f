"""Chunking a 20 MB text stays well under 500 MB of memory (it took over 1 GB)."""

from __future__ import annotations

import subprocess
import sys

PEAK_LIMIT_MB = 500
# The peak is read from /proc/self/status (VmHWM): getrusage's ru_maxrss survives exec on
# Linux, so a child of a large pytest process would report its parent's peak.
SCRIPT = """
import sys
from graphrag_neo4j.indexing.input.chunking import chunk_document
from graphrag_neo4j.indexing.records import Document
from graphrag_neo4j.settings import ChunkingSettings
from graphrag_neo4j.llm.tokens.counting import get_encoding

def high_water_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])

get_encoding("cl100k_base").encode_ordinary("warm up")
base = high_water_kb()
paragraph = ("Scrooge was a tight-fisted hand at the grindstone, a squeezing, wrenching, "
             "grasping, scraping, clutching, covetous old sinner! Hard and sharp as flint. ") * 4
text = "\\n\\n".join(f"{i}. {paragraph}" for i in range(20 * 2**20 // len(paragraph)))
chunks = chunk_document(Document("big", "big", "big.txt", text), ChunkingSettings())
peak = high_water_kb()
print(len(text), len(chunks), base // 1024, peak // 1024)
"""


def test_a_20_mb_text_is_chunked_in_under_500_mb() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          check=True, timeout=600)
    chars, chunks, base_mb, peak_mb = (int(x) for x in done.stdout.split())
    assert chars >= 20 * 2**20 - 2000 and chunks > 4000
    assert peak_mb < PEAK_LIMIT_MB, f"peak {peak_mb} MB (process base {base_mb} MB)"
