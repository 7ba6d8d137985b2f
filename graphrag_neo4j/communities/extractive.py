"""Extractive community titles and summaries: top entities by degree, most central sentences."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from graphrag_neo4j.database.content_ids import content_id

TITLE_NAMES = 3
# Longer names are credited through the descriptions they come from, not found in text.
MAX_NAME_WORDS = 8
STATUS = "extractive"
RATING_EXPLANATION = "Not rated: an extractive summary, written without an LLM."
# Sentence ends, and line breaks (joined descriptions may put one description per line).
_SENTENCE_END = re.compile(
    r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)"  # titles end no sentence
    r"(?:(?<=[.!?])|(?<=[.!?][\"'\u201d\u2019)\]]))\s+(?=[\"'\u201c\u2018(\[]*[A-Z0-9])|\n+"
)
_WORD = re.compile(r"\w+")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Member:
    """A community member as the summary sees it."""

    id: str
    name: str
    degree: int


@dataclass
class Sentence:
    """One distinct sentence of the graph's descriptions and the entities it concerns."""

    text: str
    entities: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class Extract:
    """A community's extractive title and summary, and the hash that says when it changed."""

    title: str
    summary: str
    hash: str

    @property
    def full_content(self) -> str:
        """The extract as markdown, in the place of a report's full content."""
        return f"# {self.title}\n\n{self.summary}".strip()


def split_sentences(text: str) -> list[str]:
    """The sentences of a description, whitespace-normalised, empty ones dropped."""
    parts = (_SPACES.sub(" ", part).strip() for part in _SENTENCE_END.split(text or ""))
    return [part for part in parts if len(part) > 1]


def words(text: str) -> tuple[str, ...]:
    """Lower-case word tokens, for name matching."""
    return tuple(_WORD.findall(text.casefold()))


class NameFinder:
    """Finds which entities a sentence names, by whole-word match of their names."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        self._ids: dict[tuple[str, ...], list[str]] = defaultdict(list)
        for entity_id, name in names:
            tokens = words(name)
            if 0 < len(tokens) <= MAX_NAME_WORDS:
                self._ids[tokens].append(entity_id)
        # Looking up each n-gram a sentence holds costs a few dict probes per word, however
        # many names share a first word ("the ...").
        self._lengths = sorted({len(tokens) for tokens in self._ids})

    def __call__(self, tokens: tuple[str, ...]) -> set[str]:
        """The entities whose names the word tokens of a sentence hold."""
        found: set[str] = set()
        for start in range(len(tokens)):
            for length in self._lengths:
                if start + length > len(tokens):
                    break
                found.update(self._ids.get(tokens[start : start + length], ()))
        return found


class SentencePool:
    """Every distinct description sentence, with the entities it came from or names."""

    def __init__(self, finder: NameFinder) -> None:
        self.finder = finder
        self.sentences: dict[str, Sentence] = {}

    def add(self, text: str, sources: Iterable[str]) -> None:
        """Add a description's sentences, crediting the entities or relation ends it describes."""
        for part in split_sentences(text):
            tokens = words(part)
            key = " ".join(tokens)
            if not key:
                continue
            sentence = self.sentences.get(key)
            if sentence is None:
                sentence = self.sentences[key] = Sentence(part, self.finder(tokens))
            sentence.entities.update(sources)


def title_of(members: Sequence[Member]) -> str:
    """The names of the best connected members: "A", "A and B", or "A, B and C"."""
    top = sorted(members, key=lambda m: (-m.degree, m.name, m.id))[:TITLE_NAMES]
    names = list(dict.fromkeys(m.name for m in top))
    if len(names) <= 1:
        return names[0] if names else "Community"
    return f"{', '.join(names[:-1])} and {names[-1]}"


def central_sentences(
    candidates: Iterable[Sentence], members: dict[str, Member]
) -> list[Sentence]:
    """Sentences that concern most members first; ties by the members' degrees, then shortness."""

    def rank(sentence: Sentence) -> tuple[int, int, int, str]:
        inside = [members[e] for e in sentence.entities if e in members]
        return (-len(inside), -sum(m.degree for m in inside), len(sentence.text), sentence.text)

    return sorted(candidates, key=rank)


def summary_of(
    ranked: Sequence[Sentence], limit: int, budget_tokens: int, count: Callable[[str], int]
) -> str:
    """Up to `limit` ranked sentences within the token budget (a too long first one is cut)."""
    kept: list[str] = []
    used = 0
    for sentence in ranked:
        if len(kept) >= limit:
            break
        cost = count(sentence.text)
        if used + cost > budget_tokens:
            if not kept:
                kept.append(_cut(sentence.text, budget_tokens))
            continue
        kept.append(sentence.text)
        used += cost
    return " ".join(kept)


def _cut(text: str, budget_tokens: int) -> str:
    # About four characters a token; the exact count is not worth a tokenizer round trip here.
    cut = text[: max(1, budget_tokens * 4)].rsplit(" ", 1)[0]
    return cut + " ..."


def extract(
    members: Sequence[Member],
    candidates: Iterable[Sentence],
    limit: int,
    budget_tokens: int,
    count: Callable[[str], int],
) -> Extract:
    """The title, summary and hash of one community from its members and candidate sentences."""
    by_id = {m.id: m for m in members}
    title = title_of(members)
    summary = summary_of(central_sentences(candidates, by_id), limit, budget_tokens, count)
    if not summary:
        names = sorted(members, key=lambda m: (-m.degree, m.name))
        summary = "Members: " + ", ".join(m.name for m in names[:12]) + "."
    return Extract(title, summary, content_id("extractive", title, summary, *sorted(by_id)))
