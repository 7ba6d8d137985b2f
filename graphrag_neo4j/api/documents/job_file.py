"""Jobs on disk: one JSON file per job beside the uploads, so a restarted server resumes or
reports them."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger("graphrag_neo4j.api")
JOBS_FOLDER = ".jobs"  # inside the uploads folder; the dot keeps it apart from job folders


@dataclass(frozen=True)
class JobFile:
    """`<uploads>/.jobs/<id>.json` per job: what it is, its state, and what to redo."""

    folder: Path

    @classmethod
    def beside(cls, uploads_dir: Path) -> JobFile:
        """The job files of a server whose uploads live in `uploads_dir`."""
        return cls(uploads_dir / JOBS_FOLDER)

    def save(self, record: dict[str, Any]) -> None:
        """Write one job's record whole or not at all (a crash mid-write keeps the old one)."""
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.folder / f"{record['id']}.json"
        partial = path.with_suffix(".tmp")
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            json.dump(record, handle, ensure_ascii=False)
        partial.replace(path)

    def forget(self, job_id: str) -> None:
        """Remove a job's record (it is no longer remembered)."""
        (self.folder / f"{job_id}.json").unlink(missing_ok=True)

    def load(self) -> list[dict[str, Any]]:
        """Every readable record, oldest first; an unreadable one is logged and skipped."""
        if not self.folder.is_dir():
            return []
        records = []
        for path in self.folder.glob("*.json"):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                log.warning("job file %s is unreadable (%s); ignored", path, exc)
                continue
            if isinstance(record, dict) and isinstance(record.get("id"), str):
                records.append(record)
        return sorted(records, key=lambda r: float(r.get("created_at") or 0))
