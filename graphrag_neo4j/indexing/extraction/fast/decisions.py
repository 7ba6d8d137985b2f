"""Fast extraction's decisions over a whole input, from compact counts rather than held parses.

`TermCounts` is added to one parsed chunk at a time (how many chunks hold each term, its concept
votes, NER types and spellings) and keeps no sentence. `Decisions` are made from it and from the
summed weights of the statements chunks support (`EdgeWeights`, a second walk over the parses):
which terms are kept, their types and display names, what pruning leaves. A chunk's extraction,
with its verbatim sentences, is then built from its own parse and those decisions alone, so a
run holds the parses of one batch at a time.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from graphrag_neo4j.indexing.extraction.fast.pruning import Pruned, prune_summed
from graphrag_neo4j.indexing.extraction.fast.statement_sums import Statement, StatementSums
from graphrag_neo4j.indexing.extraction.fast.terms import UNTYPED, ChunkTerms, Term
from graphrag_neo4j.indexing.graph.summaries import SENTENCE_SEPARATOR, shortest
from graphrag_neo4j.indexing.records import ChunkExtraction, EntityMention, RelationMention
from graphrag_neo4j.settings import FastExtractionSettings

# Concepts need a corpus to tell common from telling; below this many chunks the share is noise.
MIN_CHUNKS_FOR_SHARE = 20
# How many times more chunks a term's mentions would fill at random than it is found in, for
# the term to count as clumped (central to the input, see `TermCounts.central`).
MIN_CLUMPING = 1.5


@dataclass
class TermCounts:
    """What the input's chunks say about each term key, counted one chunk at a time."""

    chunks: int = 0
    chunks_with: Counter[str] = field(default_factory=Counter)
    concept_votes: Counter[str] = field(default_factory=Counter)  # + as a noun phrase, - name
    ner_types: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    spellings: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    headings: Counter[str] = field(default_factory=Counter)  # mentions alone on their line

    def add(self, chunk: ChunkTerms) -> None:
        """Count one chunk's terms."""
        self.chunks += 1
        self.chunks_with.update({t.key for t in chunk.terms})
        for term in chunk.terms:
            self.concept_votes[term.key] += 1 if term.concept else -1
            if term.type != UNTYPED and not term.concept:
                self.ner_types[term.key][term.type] += 1
            self.spellings[term.key][term.name] += 1
            self.headings[term.key] += term.heading

    def concept_keys(self) -> set[str]:
        """Keys found as common-noun phrases more often than as names (the tagger errs both
        ways)."""
        return {key for key, vote in self.concept_votes.items() if vote > 0}

    def frequent(self, settings: FastExtractionSettings) -> set[str]:
        """Keys found in enough chunks (concepts: and in not too many of them)."""
        concepts = self.concept_keys()
        most = settings.max_concept_chunk_share * self.chunks
        kept = set()
        for key, count in self.chunks_with.items():
            if key in concepts:
                common = self.chunks >= MIN_CHUNKS_FOR_SHARE and count > most
                if count >= settings.min_concept_frequency and not common:
                    kept.add(key)
            elif count >= settings.min_entity_frequency:
                kept.add(key)
        return kept

    def mentions(self, key: str) -> int:
        """How many times the input mentions the key (every spelling)."""
        return sum(self.spellings[key].values())

    def voted_types(self, kept: set[str], settings: FastExtractionSettings) -> dict[str, str]:
        """One type per key: its most frequent type, when that type is given to at least
        `min_type_agreement` of the key's typed mentions; otherwise (the tagger unsure, a name
        it never typed, or one found only as a heading) a concept."""
        concepts = self.concept_keys()
        types = {}
        for key in kept:
            votes = self.ner_types.get(key) if key not in concepts else None
            best, count = votes.most_common(1)[0] if votes else ("", 0)
            # Agreement among the typed mentions: a name the tagger types now and then, but
            # always alike, is its type ("Scrooge"); one it types every way is not.
            typed = sum(votes.values()) if votes else 0
            sure = count >= settings.min_type_agreement * typed > 0
            sure = sure and self.headings[key] < self.mentions(key)
            types[key] = best if sure else settings.concept_type
        return types

    def central(self, keys: set[str]) -> set[str]:
        """The keys the input dwells on: found in markedly fewer chunks than their mentions
        would fill if spread at random (Poisson). A filler word ("kind", "situation") is used
        once here and once there; a domain term clumps where it is discussed, so it is kept
        even when it is a hub. Counts only: they add up over parts of an input."""
        if self.chunks < MIN_CHUNKS_FOR_SHARE:
            return set()
        central = set()
        for key in keys:
            spread = self.chunks * -math.expm1(-self.mentions(key) / self.chunks)
            if spread >= MIN_CLUMPING * self.chunks_with[key]:
                central.add(key)
        return central

    def display_names(self, kept: set[str]) -> dict[str, str]:
        """The most frequent spelling of each key, capitalised ones first on ties."""
        return {
            key: max(self.spellings[key].items(),
                     key=lambda item: (item[1], item[0][:1].isupper(), item[0]))[0]
            for key in kept
        }


@dataclass
class _Pair:
    """What one chunk says about two terms: supporting sentences and weight."""

    sentences: list[str] = field(default_factory=list)
    weight: float = 0.0


def chunk_pairs(
    chunk: ChunkTerms, kept: set[str], settings: FastExtractionSettings
) -> dict[Statement, _Pair]:
    """(a, predicate, b) -> support in this chunk: per sentence, or the chunk alone."""
    pairs: dict[Statement, _Pair] = defaultdict(_Pair)
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
        for a, b in sorted(nearby_pairs(by_sentence, settings.chunk_window_sentences) - together):
            pairs[(a, settings.cooccurrence_predicate, b)].weight += settings.chunk_weight
    return pairs


def nearby_pairs(by_sentence: dict[int, dict[str, Term]], window: int) -> set[tuple[str, str]]:
    """Every (a, b), a < b, of two keys found within `window` consecutive sentences."""
    found: set[tuple[str, str]] = set()
    for number, terms in by_sentence.items():
        near = {key for step in range(window) for key in by_sentence.get(number + step, {})}
        found.update((min(a, b), max(a, b)) for a in terms for b in near if a != b)
    return found


def _order(term: Term) -> str:
    return term.key


def _statement(
    first: Term, second: Term, chunk: ChunkTerms, settings: FastExtractionSettings
) -> Statement:
    """A verb whose subject is one and which governs the other is the predicate, else co-occurs."""
    if first.verb >= 0 and first.verb == second.verb and first.subject != second.subject:
        subject, obj = (first, second) if first.subject else (second, first)
        return subject.key, chunk.verbs[first.verb], obj.key
    return first.key, settings.cooccurrence_predicate, second.key


@dataclass
class EdgeWeights:
    """The weight of each statement among kept terms summed over the chunks (in chunk order, as
    pruning always summed them), without their sentences; and the kept keys each chunk holds
    (alias folding reads which names are found together)."""

    kept: set[str]
    settings: FastExtractionSettings
    by_chunk: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    sums: StatementSums = field(init=False)

    def __post_init__(self) -> None:
        self.sums = StatementSums(self.kept)

    def add(self, chunk: ChunkTerms, chunk_id: str) -> None:
        """The statements of one chunk (`chunk_id`: its id, as cached terms carry none)."""
        for statement, pair in chunk_pairs(chunk, self.kept, self.settings).items():
            self.sums.add(statement, pair.weight)
        self.by_chunk[chunk_id].update(t.key for t in chunk.terms if t.key in self.kept)

    def strong(self) -> dict[Statement, float]:
        """The statements whose summed weight reaches min_edge_weight (pruning drops the rest)."""
        return self.sums.at_least(self.settings.min_edge_weight)


@dataclass(frozen=True)
class Decisions:
    """What the whole input decided: the kept keys, their types and names, what pruning left."""

    kept: set[str]
    types: dict[str, str]
    names: dict[str, str]
    pruned: Pruned
    settings: FastExtractionSettings

    @classmethod
    def made(cls, counts: TermCounts, weights: EdgeWeights) -> Decisions:
        """Types, names and pruning from the counts and the summed statement weights."""
        settings, kept = weights.settings, weights.kept
        types = counts.voted_types(kept, settings)
        concepts = {key for key in kept if types[key] == settings.concept_type}
        central = counts.central(concepts)
        pruned = prune_summed(weights.strong(), types, concepts, settings, central)
        return cls(kept, types, counts.display_names(kept), pruned, settings)

    def extraction(self, chunk: ChunkTerms) -> ChunkExtraction:
        """The chunk's surviving entities (with their sentences) and relations."""
        result = ChunkExtraction(chunk_id=chunk.chunk_id)
        sentences: dict[str, list[str]] = {}
        for term in chunk.terms:
            if term.key in self.pruned.nodes:
                sentences.setdefault(term.key, []).append(chunk.sentences[term.sentence])
        keep = self.settings.sentences_per_description
        for key, found in sentences.items():
            result.entities.append(EntityMention(
                chunk.chunk_id, self.names[key], self.types[key],
                SENTENCE_SEPARATOR.join(shortest(found, keep, self.names[key])),
            ))
        for statement, pair in chunk_pairs(chunk, self.kept, self.settings).items():
            if statement in self.pruned.edges:
                a, predicate, b = statement
                result.relations.append(RelationMention(
                    chunk.chunk_id, self.names[a], predicate, self.names[b],
                    SENTENCE_SEPARATOR.join(shortest(pair.sentences, keep)), pair.weight,
                ))
        return result

    def entities_of(self, keys: set[str]) -> list[tuple[str, str]]:
        """The (name, type) of those keys that survive pruning, by key."""
        return [(self.names[k], self.types[k]) for k in sorted(keys) if k in self.pruned.nodes]
