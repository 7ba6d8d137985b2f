"""One parsed chunk -> its terms (named entities, titled names, noun phrases) and verb links."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from graphrag_neo4j.indexing.extraction.fast.code_names import CodeName, code_names
from graphrag_neo4j.indexing.extraction.fast.nlp_model import Lemma
from graphrag_neo4j.indexing.records import normalize_name
from graphrag_neo4j.settings import FastExtractionSettings

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# A proper noun NER did not label: its type is voted over the batch (see fast_extraction).
UNTYPED = ""
_SPACES = re.compile(r"\s+")
_STRIPPED_POS = frozenset({"DET", "PRON", "PUNCT", "NUM", "PART", "SYM", "X"})
_STRIPPED_DEPS = frozenset({"poss", "case", "predet"})
# Words that may join the capitalised words of a titled name ("Ghost of Christmas Yet to Come").
_TITLE_JOINERS = frozenset({"of", "to", "the", "and"})
# Dependency arcs a term may climb to reach the verb that governs it.
_CLIMB_DEPS = frozenset({"prep", "agent", "dative", "conj", "appos", "compound", "pobj"})


@dataclass(frozen=True)
class Term:
    """One mention of a candidate entity in a sentence of a chunk."""

    key: str
    name: str
    type: str
    sentence: int
    concept: bool
    verb: int  # token index of the verb that governs it, -1 when none
    subject: bool  # it is the verb's subject, so it comes first in a verb relation
    heading: bool = False  # its sentence holds no other word: a title line


@dataclass
class ChunkTerms:
    """A chunk's sentences (whitespace folded, verbatim otherwise) and the terms in them."""

    chunk_id: str
    sentences: list[str] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    verbs: dict[int, str] = field(default_factory=dict)  # token index -> lemma


def chunk_terms(
    chunk_id: str, doc: Doc, settings: FastExtractionSettings, lemma: Lemma
) -> ChunkTerms:
    """Every term of `doc`, longest claim first: names in inline code, titled names, then NER,
    then noun phrases."""
    result = ChunkTerms(chunk_id)
    starts: list[int] = []  # the first token of each sentence, to find a token's sentence
    for sentence in doc.sents:
        result.sentences.append(_SPACES.sub(" ", sentence.text).strip())
        starts.append(sentence.start)
    claimed = _code_terms(doc, starts, result, lemma)
    entity_labels = {t.i: e.label_ for e in doc.ents for t in e}
    spans: list[tuple[Span, str, bool]] = []
    for span in _titled_names(doc):
        spans.append((span, _mapped(entity_labels.get(span.root.i), settings), False))
    for ent in doc.ents:
        if ent.label_ in settings.label_types:
            spans.append((ent, settings.label_types[ent.label_], False))
    if settings.concepts:
        spans.extend((c, settings.concept_type, True) for c in doc.noun_chunks)
    for span, entity_type, concept in spans:
        if any(i in claimed for i in range(span.start, span.end)):
            continue
        term = _term(span, entity_type, concept, starts, settings, lemma)
        if term is not None:
            claimed.update(range(span.start, span.end))
            result.terms.append(term)
            if term.verb >= 0:
                result.verbs[term.verb] = lemma(doc[term.verb]).lower()
    return result


def _code_terms(doc: Doc, starts: list[int], result: ChunkTerms, lemma: Lemma) -> set[int]:
    """Add a term for each name in inline code; every code span's tokens are claimed, so no
    noun phrase or NER span is made of code."""
    claimed: set[int] = set()
    for (start, end), found in code_names(doc.text):
        code = doc.char_span(start, end, alignment_mode="expand")
        if code is None:
            continue
        claimed.update(range(code.start, code.end))
        term = _code_term(doc, found, starts) if found is not None else None
        if term is not None:
            result.terms.append(term)
            if term.verb >= 0:
                result.verbs[term.verb] = lemma(doc[term.verb]).lower()
    return claimed


def _code_term(doc: Doc, found: CodeName, starts: list[int]) -> Term | None:
    span = doc.char_span(found.start, found.end, alignment_mode="expand")
    key = normalize_name(found.name)
    if span is None or not any(ch.isalpha() for ch in key):
        return None
    sentence = bisect.bisect_right(starts, span.root.i) - 1
    verb, subject = _governing_verb(span.root)
    return Term(key, found.name, found.type, sentence, False, verb, subject)


def _mapped(label: str | None, settings: FastExtractionSettings) -> str:
    return settings.label_types.get(label or "", settings.concept_type)


def _titled_names(doc: Doc) -> Iterator[Span]:
    """Capitalised words joined by "of" and friends: "Ghost of Christmas Past", "Bank of Spain"."""
    start = 0
    while start < len(doc):
        if not _capitalised(doc[start]) or doc[start].pos_ not in ("PROPN", "NOUN"):
            start += 1
            continue
        end = start + 1
        while end < len(doc):
            if _capitalised(doc[end]):
                end += 1
            elif doc[end].lower_ in _TITLE_JOINERS and end + 1 < len(doc) and (
                _capitalised(doc[end + 1]) and doc[end].sent == doc[end + 1].sent
            ):
                end += 2
            else:
                break
        words = doc[start:end]
        if any(t.lower_ == "of" for t in words) and sum(map(_capitalised, words)) >= 2:
            yield words
        start = end


def _capitalised(token: Token) -> bool:
    return token.is_title and token.is_alpha and not token.is_sent_start


def _term(
    span: Span,
    entity_type: str,
    concept: bool,
    starts: list[int],
    settings: FastExtractionSettings,
    lemma: Lemma,
) -> Term | None:
    tokens = _core(span)
    if not tokens:
        return None
    proper = span.root.pos_ == "PROPN"
    if concept and proper:
        concept, entity_type = False, UNTYPED
    if concept:
        if all(t.is_stop for t in tokens) or len(tokens) > settings.max_concept_words:
            return None
        # Lemmas keep the text's own spacing, so "counting-house" stays one word.
        name = _SPACES.sub(" ", "".join(lemma(t).lower() + t.whitespace_ for t in tokens)).strip()
    else:
        name = _SPACES.sub(" ", span.doc[tokens[0].i : tokens[-1].i + 1].text).strip()
    key = normalize_name(name)
    if len(key) < settings.min_concept_chars or not any(ch.isalpha() for ch in key):
        return None
    verb, subject = _governing_verb(span.root)
    sentence = bisect.bisect_right(starts, span.root.i) - 1
    return Term(key, name, entity_type, sentence, concept, verb, subject, _alone(span))


def _alone(span: Span) -> bool:
    """Whether `span` is the only word of its sentence: a heading ("ACL Privilege
    Abbreviations"), whose capitals say nothing of what it names."""
    return not any(t.is_alpha for t in span.sent if not span.start <= t.i < span.end)


def _core(span: Span) -> list[Token]:
    """The span without leading determiners, pronouns, possessives and trailing punctuation."""
    tokens = [t for t in span if t.dep_ not in _STRIPPED_DEPS]
    while tokens and tokens[0].pos_ in _STRIPPED_POS:
        tokens.pop(0)
    while tokens and tokens[-1].pos_ in _STRIPPED_POS:
        tokens.pop()
    return tokens


def _governing_verb(root: Token) -> tuple[int, bool]:
    """The verb this phrase hangs from through prepositions, and whether it is its subject."""
    token = root
    for _ in range(4):  # a few arcs at most: further away the verb is not about this phrase
        head = token.head
        if head.i == token.i:
            return -1, False
        if head.pos_ == "VERB":
            return head.i, token.dep_ in ("nsubj", "nsubjpass", "agent")
        if token.dep_ not in _CLIMB_DEPS or head.pos_ not in ("ADP", "VERB"):
            return -1, False
        token = head
    return -1, False
