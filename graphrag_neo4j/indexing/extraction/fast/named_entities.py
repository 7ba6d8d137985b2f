"""Named entities of a short text with the shipped spaCy pipeline (for grounding answers)."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline
from graphrag_neo4j.indexing.input.language import in_latin_script
from graphrag_neo4j.runtime.errors import ModelError

# Names a reader could check against the documents; dates, counts and nationalities are
# left out (often paraphrased or worked out from the documents: "Victorian", "three").
NAME_LABELS = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW"}
)
# Amounts a reader could check too, when written with digits: a small model invents them
# ("weight: 3 feet", "$21.4 trillion") as readily as names.
AMOUNT_LABELS = frozenset({"MONEY", "QUANTITY", "PERCENT"})


def named_entities(text: str) -> list[str]:
    """The names spaCy finds in `text`, and its amounts written with digits, in order, each
    once ("'s" left off). A text mostly in another script is refused (ModelError): the English
    model reads a Chinese sentence as one name."""
    if not in_latin_script(text):
        raise ModelError("the answer is not in the Latin script, and the shipped named-entity"
                         " model reads English")
    doc = load_pipeline()(text)
    names = (ent.text.removesuffix("'s").removesuffix("’s").strip() for ent in doc.ents
             if ent.label_ in NAME_LABELS or (ent.label_ in AMOUNT_LABELS and _has_digit(ent.text)))
    return list(dict.fromkeys(n for n in names if n))


def _has_digit(text: str) -> bool:
    return any(char.isdigit() for char in text)
