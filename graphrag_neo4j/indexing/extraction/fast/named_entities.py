"""Named entities of a short text with the shipped spaCy pipeline (for grounding answers)."""

from __future__ import annotations

from graphrag_neo4j.indexing.extraction.fast.nlp_model import load_pipeline

# Names a reader could check against the documents; dates, numbers and nationalities are
# left out (they are rarely invented and often paraphrased: "Victorian", "three").
NAME_LABELS = frozenset(
    {"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW"}
)


def named_entities(text: str) -> list[str]:
    """The names spaCy finds in `text`, in order, each once ("'s" left off)."""
    doc = load_pipeline()(text)
    names = (ent.text.removesuffix("'s").removesuffix("’s").strip() for ent in doc.ents
             if ent.label_ in NAME_LABELS)
    return list(dict.fromkeys(n for n in names if n))
