"""Fast extraction: chunks -> spaCy terms -> typed mentions and co-occurrence relations, pruned."""

from __future__ import annotations

import asyncio
import gc
import itertools
import threading
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.fast.parsing import Progress, parse_chunks
from graphrag_neo4j.indexing.extraction.fast.pruning import Edge, Pruned, prune
from graphrag_neo4j.indexing.extraction.fast.terms import UNTYPED, ChunkTerms, Term
from graphrag_neo4j.indexing.graph.summaries import SENTENCE_SEPARATOR, shortest
from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention, RelationMention
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from spacy.language import Language

    from graphrag_neo4j.indexing.extraction.fast.parse_cache import ParseCache
    from graphrag_neo4j.indexing.records import Chunk

# Concepts need a corpus to tell common from telling; below this many chunks the share is noise.
MIN_CHUNKS_FOR_SHARE = 20


def extract_fast(
    load_nlp: Callable[[], Language],
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkExtraction]:
    """Parse the chunks (in worker processes for a long input; with a `cache`, only those not
    parsed before; the pipeline is loaded only for those) and build pruned extractions."""
    parsed = parse_chunks(load_nlp, chunks, settings, on_chunk, cache)
    with collector_paused():
        return extractions_from_terms(parsed, settings)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a burst of small acyclic objects is built.

    Each few hundred allocations start a collection, and the older generations it reaches walk
    every object of the process, the loaded models' hundreds of thousands included: that was
    60% of building the book's extractions. Nothing built here forms a cycle.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


async def extract_fast_in_thread(
    load_nlp: Callable[[], Language],
    chunks: Sequence[Chunk],
    settings: FastExtractionSettings,
    on_chunk: Progress = None,
    cache: ParseCache | None = None,
) -> list[ChunkExtraction]:
    """`extract_fast` in a thread of its own, so the event loop stays free.

    Not asyncio's executor: a parser worker forked from an executor thread exits with code 1
    (the executor's exit hook joins that very thread in the child).
    """
    loop = asyncio.get_running_loop()
    done: asyncio.Future[list[ChunkExtraction]] = loop.create_future()

    def work() -> None:
        try:
            result = extract_fast(load_nlp, chunks, settings, on_chunk, cache)
        except BaseException as error:  # handed to the awaiting coroutine, not lost in a thread
            loop.call_soon_threadsafe(done.set_exception, error)
        else:
            loop.call_soon_threadsafe(done.set_result, result)

    threading.Thread(target=work, name="fast-extraction", daemon=True).start()
    return await done


@dataclass
class _Pair:
    """What a batch says about two terms in one chunk: supporting sentences and weight."""

    sentences: list[str] = field(default_factory=list)
    weight: float = 0.0


def extractions_from_terms(
    parsed: Sequence[ChunkTerms], settings: FastExtractionSettings
) -> list[ChunkExtraction]:
    """Keep frequent terms, type them by vote, relate co-occurring ones, prune, emit mentions."""
    kept = _frequent_terms(parsed, settings)
    types = _voted_types(parsed, kept, settings)
    names = _display_names(parsed, kept)
    pairs = {c.chunk_id: _chunk_pairs(c, kept, settings) for c in parsed}
    edges = [
        Edge(a, predicate, b, pair.weight)
        for chunk_pairs in pairs.values()
        for (a, predicate, b), pair in chunk_pairs.items()
    ]
    concepts = {key for key in kept if types[key] == settings.concept_type}
    pruned = prune(edges, types, concepts, settings)
    return [_extraction(c, pruned, pairs[c.chunk_id], types, names, settings) for c in parsed]


def _frequent_terms(parsed: Sequence[ChunkTerms], settings: FastExtractionSettings) -> set[str]:
    """Keys found in enough chunks (concepts: and in not too many of them)."""
    chunk_counts: Counter[str] = Counter()
    for chunk in parsed:
        chunk_counts.update({t.key for t in chunk.terms})
    concepts = _concept_keys(parsed)
    most = settings.max_concept_chunk_share * len(parsed)
    kept = set()
    for key, count in chunk_counts.items():
        if key in concepts:
            common = len(parsed) >= MIN_CHUNKS_FOR_SHARE and count > most
            if count >= settings.min_concept_frequency and not common:
                kept.add(key)
        elif count >= settings.min_entity_frequency:
            kept.add(key)
    return kept


def _concept_keys(parsed: Iterable[ChunkTerms]) -> set[str]:
    """Keys found as common-noun phrases more often than as names (the tagger errs both ways)."""
    votes: Counter[str] = Counter()
    for chunk in parsed:
        for term in chunk.terms:
            votes[term.key] += 1 if term.concept else -1
    return {key for key, vote in votes.items() if vote > 0}


def _voted_types(
    parsed: Sequence[ChunkTerms], kept: set[str], settings: FastExtractionSettings
) -> dict[str, str]:
    """One type per key: its most frequent NER type; a name NER never typed is a concept."""
    concepts = _concept_keys(parsed)
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for term in _terms(parsed, kept):
        if term.type != UNTYPED and not term.concept and term.key not in concepts:
            votes[term.key][term.type] += 1
    return {
        key: votes[key].most_common(1)[0][0] if votes[key] else settings.concept_type
        for key in kept
    }


def _display_names(parsed: Sequence[ChunkTerms], kept: set[str]) -> dict[str, str]:
    """The most frequent spelling of each key, capitalised ones first on ties."""
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for term in _terms(parsed, kept):
        spellings[term.key][term.name] += 1
    return {
        key: max(counts.items(), key=lambda item: (item[1], item[0][:1].isupper(), item[0]))[0]
        for key, counts in spellings.items()
    }


def _terms(parsed: Iterable[ChunkTerms], kept: set[str]) -> Iterable[Term]:
    return (t for chunk in parsed for t in chunk.terms if t.key in kept)


def _chunk_pairs(
    chunk: ChunkTerms, kept: set[str], settings: FastExtractionSettings
) -> dict[tuple[str, str, str], _Pair]:
    """(a, predicate, b) -> support in this chunk: per sentence, or the chunk alone."""
    pairs: dict[tuple[str, str, str], _Pair] = defaultdict(_Pair)
    by_sentence: dict[int, dict[str, Term]] = defaultdict(dict)
    for term in chunk.terms:
        if term.key in kept:
            by_sentence[term.sentence].setdefault(term.key, term)
    together: set[tuple[str, str]] = set()
    for number, terms in sorted(by_sentence.items()):
        for first, second in itertools.combinations(sorted(terms.values(), key=_order), 2):
            a, predicate, b = _statement(first, second, chunk, settings)
            together.add((min(a, b), max(a, b)))
            pair = pairs[(a, predicate, b)]
            pair.weight += settings.sentence_weight
            pair.sentences.append(chunk.sentences[number])
    if settings.chunk_weight > 0:
        in_chunk = sorted({t.key for terms in by_sentence.values() for t in terms.values()})
        for a, b in itertools.combinations(in_chunk, 2):
            if (a, b) not in together:
                pairs[(a, settings.cooccurrence_predicate, b)].weight += settings.chunk_weight
    return pairs


def _order(term: Term) -> str:
    return term.key


def _statement(
    first: Term, second: Term, chunk: ChunkTerms, settings: FastExtractionSettings
) -> tuple[str, str, str]:
    """A verb whose subject is one and which governs the other is the predicate, else co-occurs."""
    if first.verb >= 0 and first.verb == second.verb and first.subject != second.subject:
        subject, obj = (first, second) if first.subject else (second, first)
        return subject.key, chunk.verbs[first.verb], obj.key
    return first.key, settings.cooccurrence_predicate, second.key


def _extraction(
    chunk: ChunkTerms,
    pruned: Pruned,
    pairs: dict[tuple[str, str, str], _Pair],
    types: dict[str, str],
    names: dict[str, str],
    settings: FastExtractionSettings,
) -> ChunkExtraction:
    """The chunk's surviving entities (with their sentences) and relations."""
    result = ChunkExtraction(chunk_id=chunk.chunk_id)
    sentences: dict[str, list[str]] = {}
    for term in chunk.terms:
        if term.key in pruned.nodes:
            sentences.setdefault(term.key, []).append(chunk.sentences[term.sentence])
    keep = settings.sentences_per_description
    for key, found in sentences.items():
        result.entities.append(EntityMention(
            chunk.chunk_id, names[key], types[key], SENTENCE_SEPARATOR.join(shortest(found, keep))
        ))
    for statement, pair in pairs.items():
        if statement in pruned.edges:
            a, predicate, b = statement
            result.relations.append(RelationMention(
                chunk.chunk_id, names[a], predicate, names[b],
                SENTENCE_SEPARATOR.join(shortest(pair.sentences, keep)), pair.weight,
            ))
    return result
