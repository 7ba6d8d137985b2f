"""The end-of-run summary of an indexing run."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.table import Table


@dataclass
class IndexStats:
    """What an indexing run did, for the summary and for tests."""

    documents: int = 0
    unchanged_documents: int = 0
    changed_documents: int = 0
    resumed_documents: int = 0  # left half-written by a failed run, cleared and indexed again
    skipped_files: int = 0
    refused_documents: int = 0
    unextracted_documents: int = 0  # indexed for retrieval, not read by extraction (language)
    chunks: int = 0
    entities: int = 0
    relations: int = 0
    merges: int = 0
    dropped_records: int = 0
    refused_names: int = 0
    orphans_added: int = 0
    orphans_dropped: int = 0
    triplets: int = 0
    malformed_triplets: int = 0
    llm_decisions: int = 0
    stage_seconds: dict[str, float] = field(default_factory=dict)

    def table(self) -> Table:
        """The summary as a two-column table."""
        table = Table(title="Indexing summary", show_header=False)
        for name, value in self.__dict__.items():
            if name != "stage_seconds":
                table.add_row(name.replace("_", " "), f"{value:,}")
        for stage, seconds in self.stage_seconds.items():
            table.add_row(f"time: {stage}", f"{seconds:.1f} s")
        return table
