"""Each query method's own [search] section: its rows, weights and token budgets."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from graphrag_neo4j.settings.base import ANSWER_CONTEXT, SETTINGS_ONLY, TUNABLE, Section


class LocalSearchSettings(Section):
    """Local search: the entities nearest the question and what surrounds them."""

    top_k_entities: int = Field(10, description="Entities from the vector search.")
    top_chunks: int = Field(
        3, description="Text units in the context, ranked as hops ranks them without its LLM"
        " rerank and follow-up (the passages stating the relations near the question and around its"
        " entities; the [search.hops] settings).",
    )
    top_communities: int = Field(3, description="Community reports in the context.")
    top_outside_rels: int = Field(10, description="Relations to outside entities.")
    top_inside_rels: int = Field(10, description="Relations among the found entities.")
    rels_per_entity: int = Field(
        10, description="Relations gathered per entity, inside ones first."
    )
    context_tokens: int = Field(
        8000, json_schema_extra=ANSWER_CONTEXT, description="Context token budget."
    )
    text_unit_prop: float = Field(
        0.5, ge=0, le=1, json_schema_extra=TUNABLE,
        description="Share of the budget for text units.",
    )
    community_prop: float = Field(
        0.15, ge=0, le=1, json_schema_extra=TUNABLE, description="Share for community reports."
    )
    seeds_per_mention: int = Field(
        2, description="Entities added per name the question mentions (fulltext match)."
    )
    passage_entities: int = Field(
        5,
        description="Entities added from those the question's best passages mention (the best"
        " passage's first, then the most frequent): a fast graph's entity vectors encode names"
        " only.",
    )


class GlobalSearchSettings(Section):
    """Global search: map over community reports, then reduce."""

    community_level: int = Field(
        2, ge=0, json_schema_extra=TUNABLE, description="Community level to map over."
    )
    map_batch_tokens: int = Field(
        8000, json_schema_extra=ANSWER_CONTEXT, description="Report tokens per map call."
    )
    map_budget_tokens: int = Field(
        24000,
        description="A level without LLM reports (lazy): the most tokens of community text "
        "the map stage reads. The communities nearest the question come first (their reports "
        "written within `search.lazy_report_budget`), then the others largest first, by "
        "extractive summary; the answer's notes say what share of the level's entities they "
        "cover. Raise it to read more of the level (more map calls).",
    )
    reduce_tokens: int = Field(
        8000, json_schema_extra=ANSWER_CONTEXT, description="Token budget of the reduce context."
    )
    dynamic_selection: bool = Field(
        False, description="Rate reports from the root down and map only relevant ones."
    )
    dynamic_min_rating: int = Field(
        5, ge=0, le=10, json_schema_extra=TUNABLE,
        description="Rating (0-10) a report needs to count as relevant."
    )


class HopsSearchSettings(Section):
    """Hops search: a subgraph around the question's entities ranks the passages."""

    entity_top_k: int = Field(3, description="Entities per question mention.")
    max_mentions: int = Field(
        20, ge=1, description="Most names a question's mentions may hold: more given in the"
        " `mentions` option are refused, more found by the NER call are cut.",
    )
    relation_top_k: int = Field(3, description="Relations from the question.")
    degree: int = Field(
        1, ge=1, le=2, json_schema_extra=TUNABLE, description="Subgraph expansion degree (1 or 2)."
    )
    final_k: int = Field(2, description="Passages in the answer context.")
    rerank: bool = Field(
        False,
        description="Find the question's names and rerank relations with the LLM (two calls);"
        " off by default: with the offline model it lowered Recall@5, after the passages"
        " `rerank_keep` holds (docs/benchmarks.md). Retrieval only makes the same calls.",
    )
    max_candidates: int = Field(
        100, description="Candidate relations kept from the subgraph, nearest first."
    )
    rerank_candidates: int = Field(
        25, description="Most candidate relations shown to the LLM reranker."
    )
    rerank_select: int = Field(3, description="Most relations the LLM reranker may choose.")
    rerank_keep: int = Field(
        2, ge=0, json_schema_extra=TUNABLE,
        description="Best passages of the ranking without the rerank that its choices never"
        " move: the chosen relations' passages come after them, and the answer reads them"
        " beside the first `final_k`. 2: with the offline model the rerank put Recall@2 below"
        " hops' without it (docs/benchmarks.md); 0 lets a strong model's choices lead, as the"
        " Milvus notebook's do.",
    )
    relation_weight: float = Field(
        0.75, json_schema_extra=TUNABLE,
        description="Weight of the best relation's similarity added to a passage's own "
        "(passages of LLM-extracted or triplet documents): the nearest candidate relation it "
        "states, or for a passage no candidate reached, the nearest relation it states.",
    )
    fast_relation_weight: float = Field(
        0.0, json_schema_extra=TUNABLE,
        description="The same for passages indexed with --method fast, whose relations "
        "are co-occurrences, not stated facts (on MuSiQue any weight lowered Recall@5).",
    )
    bridge_weight: float = Field(
        0.15, json_schema_extra=TUNABLE,
        description="Added to passages naming a bridge, a named entity of the passage "
        "nearest the question that the question does not name (x 1/ln(2 + its passages); "
        "the page titled by the bridge's name, or by a run of its capitalised words, as if it "
        "alone named it); of passages tied as nearest, the one whose title the question names.",
    )
    bridge_max_passages: int = Field(
        50, description="An entity named in more passages is too common to be a bridge."
    )
    coverage_bridge_weight: float = Field(
        0.1, ge=0, json_schema_extra=TUNABLE,
        description="Coverage-aware selection: the best `coverage_pool` passages are picked in"
        " turn, each by its score + this x 1/ln(2 + its passages) for the rarest entity it"
        " shares with the passages picked before it that the question does not name (0.1"
        " chosen on MuSiQue dev questions 1-25; 0 keeps the order by score).",
    )
    coverage_pool: int = Field(
        20, ge=1, description="Passages, best first, the coverage-aware selection reorders."
    )
    follow_up: bool = Field(
        True,
        description="One LLM call reads the best `follow_up_passages` passages and writes what"
        " the question still needs; the passages hops finds for the question with it join the"
        " ranking after the first `follow_up_keep`, which never move, and the answer reads"
        " them beside the first `final_k` (docs/benchmarks.md). Retrieval only makes the call"
        " too; without an LLM the ranking stays, with a note.",
    )
    follow_up_passages: int = Field(
        3, ge=1, description="Best passages the follow-up call reads."
    )
    follow_up_keep: int = Field(
        2, ge=0, json_schema_extra=TUNABLE,
        description="Best passages the follow-up's passages never move.",
    )
    follow_up_insert: int = Field(
        2, ge=0, json_schema_extra=TUNABLE,
        description="Passages found with the follow-up placed after the kept ones.",
    )


class PprSearchSettings(Section):
    """PPR search: Personalized PageRank from the question's entities and passages."""

    damping: float = Field(
        0.5, gt=0, lt=1, json_schema_extra=TUNABLE,
        description="Probability that the walk follows an edge rather than restarting at a"
        " seed (HippoRAG 2's 0.5).",
    )
    passage_share: float = Field(
        0.5, ge=0, le=1, json_schema_extra=TUNABLE,
        description="Share of the walk's restarts at the passages nearest the question (by"
        " their min-max normalised scores); the rest restarts at the entities, each by its"
        " similarity over the passages it is in. Half and half: neither the passages' words"
        " nor the graph's entities alone decide.",
    )
    seed_passages: int = Field(
        20, ge=0, le=1000, description="Passages nearest the question seeded into the walk."
    )
    dense_share: float = Field(
        0.5, ge=0, le=1, json_schema_extra=TUNABLE,
        description="Weight of a passage's own similarity to the question in its final score"
        " (both min-max normalised over the seeded passages and the walk's): the rest is its"
        " visit probability. Half and half: a walk score alone moved passages the question"
        " names below ones that merely share its entities.",
    )
    named_per_mention: int = Field(
        2, ge=0, le=1000,
        description="Entities seeded per name the question mentions (fulltext match).",
    )
    entity_top_k: int = Field(
        5, ge=0, le=1000, description="Entities nearest the question seeded into the walk."
    )
    fact_top_k: int = Field(
        5, ge=0, le=1000,
        description="Relations nearest the question whose two entities are seeded.",
    )
    max_degree: int = Field(
        30, ge=1, le=1_000_000,
        description="A node with more edges (a hub) is reached but not walked through when the"
        " seeds' neighbourhood is read. The neighbourhood grows with its square: on a software"
        " manual's dense fast graph a question's median read took 134 ms at 100, 57 ms at 30,"
        " with the same MuSiQue recall.",
    )
    top_k: int = Field(3, ge=1, le=1000, description="Passages in the answer context.")


class DriftSearchSettings(Section):
    """DRIFT search: a primer over community reports, rounds of local follow-ups, a reduce."""

    primer_k: int = Field(
        5, ge=1, description="Community reports the primer reads, nearest first."
    )
    k_followups: int = Field(
        3, ge=1, description="Follow-up questions answered by local search per round."
    )
    depth: int = Field(
        2, ge=1, description="Rounds of follow-ups (local calls <= followups x depth)."
    )
    hyde: bool = Field(
        False, description="Embed an LLM-written hypothetical answer with the question."
    )
    primer_tokens: int = Field(
        4000, json_schema_extra=ANSWER_CONTEXT,
        description="Token budget of the community reports in the primer prompt."
    )
    followup_tokens: int = Field(
        3000, json_schema_extra=ANSWER_CONTEXT,
        description="Token budget of each follow-up's local search context."
    )
    reduce_tokens: int = Field(
        6000, json_schema_extra=ANSWER_CONTEXT,
        description="Token budget of the findings and tables of the final answer."
    )


class NaiveSearchSettings(Section):
    """Naive search: the passages nearest the question."""

    top_k: int = Field(3, description="Passages from the vector search.")


class CypherSearchSettings(Section):
    """Cypher search (Text2Cypher): the LLM writes one read-only query from the graph schema."""

    timeout_s: float = Field(
        10.0, gt=0, description="Most seconds the generated query may run (read transaction)."
    )
    max_rows: int = Field(50, ge=1, description="Most result rows read into the answer prompt.")
    repair: bool = Field(
        True, description="On a query that did not answer (refused, failing, naming what the"
        " graph does not have, finding no rows or only zeros, counting 1 on every row, or only"
        " numbers where the question asks which or who): first, with no LLM call, each repair"
        " of the one list of rewrites (query/cypher/rewrites/registry.py, shown in"
        " docs/query-methods.md) that the query is for; then, if none answered, one more LLM"
        " call told what went wrong (for a query a repair is for, that repair's own sentence).",
    )
    check_names: bool = Field(
        True, description="Treat a query naming a label, relationship type or property the"
        " graph does not have (its EXPLAIN warns of it) like a failing one, and do not run it.",
    )
    fallback: bool = Field(
        True, description="When no query runs (or it finds nothing), answer with local search"
        " and say so in the answer's notes; false answers from the empty result."
    )
    allowed_procedures: list[str] = Field(
        default_factory=lambda: [
            "db.labels", "db.relationshipTypes", "db.propertyKeys",
            "db.index.fulltext.queryNodes", "db.index.vector.queryNodes",
        ],
        json_schema_extra=SETTINGS_ONLY,
        description="The only procedures a generated query may call; any other procedure,"
        " write, schema or admin operation in its plan is refused (settings only: a query"
        " cannot change it).",
    )
    schema_samples: int = Field(
        3, ge=0, description="Sample values shown per property in the schema the LLM reads."
    )
    context_tokens: int = Field(
        4000, json_schema_extra=ANSWER_CONTEXT,
        description="Token budget of the query's result rows in the answer prompt."
    )


class HybridSearchSettings(Section):
    """Fulltext (BM25) candidates beside the vector ones, for naive, hops and local."""

    enabled: bool = Field(
        True,
        description="Candidates from the fulltext indexes (BM25) as well as the vector indexes,"
        " fused as `fusion` says (passages for naive, hops and local; entities for hops"
        " and local). On MuSiQue it adds 3.5 Recall@5 points to naive (docs/benchmarks.md).",
    )
    candidates: int = Field(
        20, description="Candidates each way (vector, fulltext) before fusion."
    )
    fusion: Literal["max", "rrf"] = Field(
        "max",
        description="max = each way's scores divided by its best, then each candidate's"
        " best (neo4j-graphrag's and LangChain's hybrid search); rrf = reciprocal rank fusion.",
    )
