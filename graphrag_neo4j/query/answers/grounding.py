"""Grounding an answer in its context: citations must name rows the context showed, and named
entities of the answer must appear in the context or the question (flagged or dropped)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from graphrag_neo4j.citations import clean_citations, strip_citations
from graphrag_neo4j.query.base import Answer, Note, NoteKind
from graphrag_neo4j.query.context import Row
from graphrag_neo4j.runtime.errors import ModelError

# Text -> the named entities in it (spaCy's NER in the engine; anything callable in tests).
EntityFinder = Callable[[str], list[str]]
# Names -> those the graph holds as entities (a store lookup in the engine).
GraphNames = Callable[[list[str]], set[str]]

CITATIONS_REPAIRED = (
    "Grounding: citations of rows that were not in the context were repaired or removed."
)
NAMES_UNCHECKED = "Grounding could not check named entities"
NAMES_REMOVED = "Grounding removed"
NAMES_UNSUPPORTED = "Unsupported by the context (check them)"
_CITED_ID = re.compile(r"\[Data:[^\]]*\]")
_WORD = re.compile(r"\w+", re.UNICODE)
# Words that do not make a name (an entity "the Spirit" is supported by "Spirit").
_FILLER = {"the", "a", "an", "of", "and", "s", "mr", "mrs", "miss", "dr", "st"}
# A sentence ends at . ! ? (its citation kept with it) before a space, or at a line break;
# not at the dot of a title or an initial ("Mr. Brownlow", "G. Stanley Hall").
_BOUNDARY = re.compile(r"(?<=[.!?])(?:\s*\[Data:[^\]]*\])?[.]?(?=\s)|\n")
_ABBREVIATION = re.compile(r"(?:\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|Prof|Mt)|\b[A-Z])\.$")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
_CURRENCY = re.compile(r"[$€£¥]")
# An amount opens with a number or a currency sign, a hedge aside ("3 feet", "about $1.2
# billion", "50%"); a name holding digits ("B-29", "Apollo 11") is a name.
_HEDGES = r"(?:about|around|approximately|roughly|nearly|almost|over|some)\s+"
_AMOUNT = re.compile(rf"^(?:{_HEDGES})?{_CURRENCY.pattern}?\d")
_HEDGE = re.compile(rf"\b{_HEDGES}(?=\S*\d)")


def split_sentences(text: str) -> list[str]:
    """`text` cut into sentences that join back into it exactly."""
    pieces: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group(0) != "\n" and _ABBREVIATION.search(text[start:match.start()]):
            continue
        pieces.append(text[start:match.end()])
        start = match.end()
    return [*pieces, text[start:]] if start < len(text) else pieces


def _ids_cited(text: str) -> int:
    return sum(len(re.findall(r"\d+", body)) for body in _CITED_ID.findall(text))


def cited_refs(sources: Mapping[str, list[Row]]) -> dict[str, set[str]]:
    """The refs an answer may cite, per context table: those of the rows the context showed."""
    return {name: {str(row["ref"]) for row in rows if isinstance(row, dict) and "ref" in row}
            for name, rows in sources.items()}


def check_citations(answer: Answer) -> int:
    """Repair table names and drop ids the context did not show; the number of ids removed."""
    known = cited_refs(answer.sources)
    if not any(known.values()):
        return 0  # nothing numbered to cite (e.g. no data found): leave the text alone
    cleaned = clean_citations(answer.text, known)
    removed = _ids_cited(answer.text) - _ids_cited(cleaned)
    if cleaned != answer.text:
        answer.text = cleaned
        answer.notes.append(Note(NoteKind.CITATIONS_REPAIRED, CITATIONS_REPAIRED))
    return removed


def evidence_words(answer: Answer, question: str) -> tuple[str, set[str]]:
    """The lower-cased text the answer may draw names from, and its words: the prompt's
    context, the question, and the text cells of every row behind the context; or, for an
    answer written from model-made text, its `evidence` and the question."""
    if answer.evidence is not None:
        text = "\n".join([answer.evidence, question]).lower()
        return text, set(_WORD.findall(text))
    cells = (str(value) for rows in answer.sources.values() for row in rows
             if isinstance(row, dict) for value in row.values() if isinstance(value, str))
    text = "\n".join([answer.context, question, *cells]).lower()
    return text, set(_WORD.findall(text))


def is_supported(name: str, text: str, words: set[str]) -> bool:
    """Whether the evidence names `name`: the whole name, or every word of it that is not a
    title or an article ("Bob Cratchit" needs both "bob" and "cratchit"); an amount (opening
    with a number) only as a whole ("3 feet" is not supported by a "3" and a "feet" apart)."""
    lowered = name.lower().strip()
    if _AMOUNT.match(lowered):
        whole = r"(?<![\w.,])" + re.escape(amount_form(lowered)) + r"(?![\w]|[.,]\d)"
        return re.search(whole, amount_form(text)) is not None
    if not lowered or lowered in text:
        return True
    wanted = [w for w in _WORD.findall(lowered) if w not in _FILLER]
    return all(w in words for w in wanted)


def is_family_of(name: str, answer: str, words: set[str]) -> bool:
    """Whether the answer names a family of a name in the evidence: "the Bernoullis" (or
    "the Joneses") when the evidence says "Bernoulli". Only after "the": a lone "Roberts" is
    not supported by a "Robert"."""
    lowered = name.lower().strip().removeprefix("the ")
    if " " in lowered or not lowered.endswith("s"):
        return False
    if re.search(rf"\bthe\s+{re.escape(lowered)}\b", answer.lower()) is None:
        return False
    return lowered[:-1] in words or (lowered.endswith("es") and lowered[:-2] in words)


def amount_form(text: str) -> str:
    """Lower-case text with amounts written one way: no thousands commas or currency signs,
    `%` as "percent", no hedge before a number ("about $1,180 billion" -> "1180 billion")."""
    text = _HEDGE.sub("", _THOUSANDS.sub("", text.lower()))
    text = _CURRENCY.sub("", text).replace("%", " percent")
    return " ".join(text.split())


def unsupported_entities(
    answer: Answer, question: str, find_entities: EntityFinder,
    graph_names: GraphNames | None = None,
) -> list[str]:
    """Named entities of the answer text found nowhere in its evidence, each once. An answer
    written from summaries (its `evidence` set: global search's reports) may also name an
    entity of the graph that no shown report names; a name the graph lacks is unsupported."""
    text, words = evidence_words(answer, question)
    said = strip_citations(answer.text)
    missing = list(dict.fromkeys(
        n for n in find_entities(said)
        if not is_supported(n, text, words) and not is_family_of(n, said, words)))
    if missing and answer.evidence is not None and graph_names is not None:
        known = graph_names(missing)
        missing = [name for name in missing if name not in known]
    return missing


def drop_sentences(text: str, names: Iterable[str]) -> tuple[str, int]:
    """`text` without the sentences naming any of `names`, and how many went."""
    wanted = [n for n in names if n]
    kept: list[str] = []
    dropped = 0
    for sentence in split_sentences(text):
        if any(name in sentence for name in wanted):
            dropped += 1
            continue
        kept.append(sentence)
    return "".join(kept).strip(), dropped


def ground_answer(
    answer: Answer, question: str, mode: str, find_entities: EntityFinder | None,
    graph_names: GraphNames | None = None,
) -> Answer:
    """Check the answer as `mode` says (flag, drop or off); notes say what was found or done."""
    if mode == "off":
        return answer
    answer.grounding = mode
    check_citations(answer)
    if find_entities is None:
        return answer
    try:
        names = unsupported_entities(answer, question, find_entities, graph_names)
    except ModelError as exc:
        answer.notes.append(Note(NoteKind.NAMES_UNCHECKED, f"{NAMES_UNCHECKED}: {exc}"))
        return answer
    answer.unsupported_entities = names
    if not names:
        return answer
    listed = ", ".join(names)
    if mode == "drop":
        answer.text, dropped = drop_sentences(answer.text, names)
        answer.notes.append(Note(
            NoteKind.NAMES_REMOVED,
            f"{NAMES_REMOVED} {dropped} sentence(s) naming {listed}, found nowhere in the"
            " context.",
        ))
        if not answer.text:
            answer.text = "The context found for this question does not support an answer."
    else:
        answer.notes.append(Note(NoteKind.NAMES_UNSUPPORTED, f"{NAMES_UNSUPPORTED}: {listed}."))
    return answer
