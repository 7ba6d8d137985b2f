"""The end-of-run summary of an indexing run."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.table import Table

# Rows whose field name would not say what they count.
LABELS = {"entities": "entities written (summed over batches)",
          "relations": "relations written (summed over batches)",
          "graph_entities": "graph: entities", "graph_relations": "graph: relations"}


@dataclass
class IndexStats:
    """What an indexing run did, for the summary and for tests."""

    documents: int = 0
    unchanged_documents: int = 0
    changed_documents: int = 0
    resumed_documents: int = 0  # left half-written by a failed run, indexed again
    # Chunks of those that whole batches had written: kept, so the run went on after them.
    kept_chunks: int = 0
    skipped_files: int = 0
    refused_documents: int = 0
    unextracted_documents: int = 0  # indexed for retrieval, not read by extraction (language)
    chunks: int = 0
    # Entities and relations each batch wrote, summed: one in several batches counts in each.
    entities: int = 0
    relations: int = 0
    # What the whole graph holds after the run.
    graph_entities: int = 0
    graph_relations: int = 0
    merges: int = 0
    dropped_records: int = 0
    refused_names: int = 0
    value_facts: int = 0  # relations to a refused name, kept as facts on the other end
    orphans_added: int = 0
    orphans_dropped: int = 0
    triplets: int = 0
    malformed_triplets: int = 0
    llm_decisions: int = 0
    # Schema-guided extraction: mentions whose type (relation) was mapped to the closest allowed
    # one or made `other`; relations outside the allowed patterns (kept).
    schema_types_mapped: int = 0
    schema_types_other: int = 0
    schema_relations_mapped: int = 0
    schema_relations_other: int = 0
    schema_outside_patterns: int = 0
    # Entities of each type in the whole graph after the run (also their label's count).
    graph_entity_types: dict[str, int] = field(default_factory=dict)
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def table(self) -> Table:
        """The summary as a two-column table."""
        table = Table(title="Indexing summary", show_header=False)
        for name, value in self.__dict__.items():
            if isinstance(value, int):
                table.add_row(LABELS.get(name, name.replace("_", " ")), f"{value:,}")
        for entity_type, count in self.graph_entity_types.items():
            table.add_row(f"graph: {entity_type} entities", f"{count:,}")
        for stage, seconds in self.stage_seconds.items():
            table.add_row(f"time: {stage}", f"{seconds:.1f} s")
        return table
