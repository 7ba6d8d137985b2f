"""How entities and relations are pulled from chunks: the method, fast extraction, a schema."""

from __future__ import annotations

from typing import Literal

from pydantic import ConfigDict, Field

from graphrag_neo4j.settings.base import Section


class FastExtractionSettings(Section):
    """Extraction without an LLM (`method = "fast"`): spaCy NER, noun phrases, co-occurrence."""

    label_types: dict[str, str] = Field(
        default_factory=lambda: {
            "PERSON": "person", "GPE": "location", "LOC": "location", "FAC": "location",
            "ORG": "organization", "NORP": "organization", "EVENT": "event",
            "WORK_OF_ART": "concept", "LAW": "concept", "PRODUCT": "concept",
            "LANGUAGE": "concept",
        },
        description="spaCy NER label -> entity type; labels not listed (DATE, TIME, MONEY, "
        "CARDINAL, ...) are dropped.",
    )
    concepts: bool = Field(True, description="Also take noun phrases as `concept` entities.")
    concept_type: str = Field("concept", description="Entity type of noun-phrase concepts.")
    min_type_agreement: float = Field(
        0.5, description="Share of a name's typed mentions its most frequent type (NER label, "
        "or the shape of inline code) must be given to; a name typed less consistently is a "
        "concept (the news-trained NER labels a product a place, an index type a person).",
    )
    min_concept_frequency: int = Field(
        3, description="Chunks of the run's input a noun phrase must appear in to become a concept."
    )
    min_concept_chars: int = Field(3, description="Shortest concept name, in characters.")
    max_concept_words: int = Field(4, description="Longest concept name, in words.")
    max_concept_chunk_share: float = Field(
        0.5,
        description="Concepts found in more than this share of the input's chunks are too "
        "common to say anything (applied from 20 chunks on).",
    )
    sentences_per_description: int = Field(
        2, description="Supporting sentences kept verbatim as an entity or relation description: "
        "of those of six words or more (shorter ones only when there are too few), the ones"
        " opening with the entity's name first, then the shortest."
    )
    vector_words: int = Field(
        0, ge=0, description="Words of an entity's extractive description its vector encodes "
        "after its name (0: the name alone). The description's sentences are in the chunks, "
        "which have vectors of their own; embedding them again made most of a fast index's "
        "time and moved no retrieval measure."
    )
    sentence_weight: float = Field(
        1.0, description="Weight a relation gets per sentence in which both ends appear."
    )
    chunk_weight: float = Field(
        0.25, description="Weight per chunk in which both ends appear but never in one sentence "
        "(0 = no chunk-level co-occurrence)."
    )
    chunk_window_sentences: int = Field(
        3, ge=1, description="Chunk-level co-occurrence links two terms only when they appear "
        "within this many consecutive sentences of the chunk, so a chunk's relations grow "
        "with its length, not its square (a 1,200-token chunk of 100 terms would otherwise "
        "make 4,950 pairs)."
    )
    cooccurrence_predicate: str = Field(
        "co-occurs with", description="Predicate of relations no verb links."
    )
    min_entity_frequency: int = Field(
        1, description="Pruning: chunks of the run's input a named entity must appear in."
    )
    min_edge_weight: float = Field(
        1.0, description="Pruning: relations weaker than this (summed over the input) are dropped."
    )
    hub_degree_percentile: float = Field(
        90.0,
        description="Pruning: entities of `hub_types` whose degree is above this percentile "
        "of the input's degrees are dropped (100 = off), as Microsoft GraphRAG drops ego nodes.",
    )
    hub_types: list[str] = Field(
        default_factory=lambda: ["concept"],
        description="Entity types hub pruning may drop (named entities stay).",
    )
    fold_aliases: bool = Field(
        True,
        description="Fold a short name into the one full name of a document that contains it "
        "(\"Scrooge\" -> \"Ebenezer Scrooge\"), recorded as an undoable merge.",
    )
    alias_types: list[str] = Field(
        default_factory=lambda: ["person", "organization", "location"],
        description="Entity types alias folding applies to.",
    )
    alias_opening_types: list[str] = Field(
        default_factory=lambda: ["person"],
        description="Alias types whose short name may open the full name (a first name: "
        "\"Ebenezer\" -> \"Ebenezer Scrooge\"). Other short names fold only into a name "
        "they close (\"Vegas\" -> \"Las Vegas\"): a name that opens a longer one is its "
        "modifier (\"Oxford University\" of \"Oxford University Cricket Club\").",
    )
    llm_summaries: bool = Field(
        False, description="Summarise long descriptions with the LLM instead of keeping "
        "`sentences_per_description` sentences."
    )
    embed_relations: bool = Field(
        False, description="Embed each relation's sentence, as LLM and triplet relations are. "
        "Only hops reads these vectors (its relation search and candidate order) and weighs "
        "fast relations at `hops.fast_relation_weight`."
    )
    batch_size: int = Field(
        2, description="Chunks per spaCy `nlp.pipe` batch (small batches keep the worker "
        "processes evenly busy)."
    )
    processes: int = Field(
        2, description="spaCy worker processes (forked, each parsing batches into terms); 1 "
        "parses in the indexing process, as every input of fewer than 16 chunks does (starting "
        "workers would cost more than they save)."
    )


class ExtractionSchemaSettings(Section):
    """An optional schema the extraction keeps to: allowed entity and relation types."""

    entity_types: dict[str, str] = Field(
        default_factory=dict,
        description="Allowed entity types, each with a one-line description the LLM reads"
        " (e.g. person = \"a human being or a ghost\"); empty = no schema.",
    )
    relation_types: list[str] = Field(
        default_factory=list,
        description="Allowed relation types (a relationship's `predicate`); empty = any verb"
        " phrase.",
    )
    patterns: list[tuple[str, str, str]] = Field(
        default_factory=list,
        description="Allowed (source type, relation, target type) patterns, listed in the"
        " prompt; a relation outside them is kept and counted.",
    )
    outside: Literal["closest", "other"] = Field(
        "closest",
        description="A type or relation outside the schema: closest = the allowed one spelled"
        " alike (a typo, a plural), else the one closest in meaning (the embedder's cosine"
        " between the value and the allowed name with its description, at least"
        " min_similarity: `location` -> place), else `other`; other = always `other`.",
    )
    min_similarity: float = Field(
        0.35, ge=-1.0, le=1.0,
        description="Least cosine similarity for outside = closest to map a type or relation by"
        " meaning. With MiniLM and the four-type schema of docs/indexing.md, 0.35 keeps location,"
        " company, human, festival (0.46-0.61) and leaves concept, date, product (0.20-0.26)"
        " `other`; another embedder may want another value.",
    )


class ExtractionSettings(Section):
    """How entities and triplets are pulled from chunks and resolved."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    method: str = Field(
        "llm", description="A registered extraction method (`graphrag-neo4j index --help` "
        "lists them): llm = an LLM call per chunk; fast = spaCy, no LLM (see [fast])."
    )

    entity_types: list[str] = Field(
        default_factory=lambda: ["person", "organization", "location", "event", "concept"],
        description="Entity types the extractor may use.",
    )
    type_labels: bool = Field(
        True,
        description="Give every entity a Neo4j label made from its type (:__Entity__:Person) when"
        " the type is one of entity_types, the fast method's types or extra_label_types; false"
        " adds none (`graphrag-neo4j init-db --relabel` removes existing ones).",
    )
    extra_label_types: list[str] = Field(
        default_factory=lambda: ["geo"],
        description="More entity types that get a label, e.g. those of an imported Microsoft"
        " GraphRAG index (its default types are person, organization, geo and event).",
    )
    gleaning_passes: int = Field(1, description="Extra 'what did you miss' passes per chunk.")
    language: str | None = Field(
        None, description="Output language; empty keeps the input's language."
    )
    max_name_words: int = Field(
        6, ge=1,
        description="Longest entity name, in words, unless it is a title (every word capitalised"
        " but of, the, and...); longer phrases, URLs, code, markup, numbers, sentences and"
        " headings in capitals are refused and counted, and a relation from an entity to such a"
        " value becomes a fact in the entity's description.",
    )
    orphan_triplets: Literal["add_entity", "drop"] = Field(
        "add_entity", description="What to do with a triplet whose endpoint was not extracted."
    )
    resolution: bool = Field(True, description="Merge same-name and near-duplicate entities.")
    resolution_similarity: float = Field(
        0.85, description="Embedding cosine above which two names become merge candidates."
    )
    summary_token_budget: int = Field(
        300, description="Joined descriptions longer than this get one LLM summary."
    )
    text_field: str = Field("text", description="Field holding the text in JSON/JSONL/CSV.")
    title_field: str = Field("title", description="Field holding the title in JSON/JSONL/CSV.")
    fast: FastExtractionSettings = Field(
        default_factory=FastExtractionSettings, description="Settings of `method = \"fast\"`."
    )
    schema_: ExtractionSchemaSettings = Field(
        default_factory=ExtractionSchemaSettings, alias="schema",
        description="Schema-guided extraction: the types every method's output is mapped onto.",
    )
