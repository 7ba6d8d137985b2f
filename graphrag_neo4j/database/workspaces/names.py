"""A workspace's Neo4j names: the whitelisted labels, types and index names, mapped one way.

Every graph of one Neo4j Community database is told apart by its labels: the default workspace
keeps the labels, relationship types and index names the Cypher files are written with (a graph
indexed before workspaces existed reads unchanged); a named workspace `acme` has its own, each
with the suffix `__ws_acme` (`__Entity____ws_acme`, `RELATED__ws_acme`, `chunk_embedding__ws_acme`).
Only the tokens listed here are mapped, and only a validated name is ever put into Cypher.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from graphrag_neo4j.runtime.errors import ConfigError

DEFAULT = ""  # the default workspace: today's names
SUFFIX = "__ws_"
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9]*(_[A-Za-z0-9]+)*$")
MAX_NAME = 32

LABELS = ("__Document__", "__Chunk__", "__Entity__", "__Community__", "__Covariate__",
          "__Merge__", "__Lock__", "__Vectors__")
TYPES = ("RELATED", "HAS_ENTITY", "IN_COMMUNITY", "MERGED_INTO", "NEXT_CHUNK", "PART_OF",
         "PARENT_COMMUNITY", "HAS_COVARIATE", "SUBJECT", "OBJECT")
INDEXES = ("document_id", "chunk_id", "entity_id", "community_id", "covariate_id",
           "related_id", "entity_name", "entity_name_key", "chunk_title", "merge_from_key",
           "lock_name", "merge_id", "community_level", "entity_name_fulltext", "chunk_embedding",
           "entity_description_embedding", "related_embedding", "community_embedding",
           "chunk_fulltext", "entity_text_fulltext", "chunk_text_fulltext")
# A label or type token: never part of a longer name.
_TOKEN = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"
# Index names only where Cypher names an index: `INDEX x`, `CONSTRAINT x`, `queryNodes('x'`;
# the same words are also aliases and properties (`AS chunk_id`).
_INDEX_PLACES = (r"((?:INDEX|CONSTRAINT)\s+){}(?![A-Za-z0-9_])",
                 r"(query(?:Nodes|Relationships)\(\s*['\"]){}(?=['\"])")
_NAMED_TOKEN = re.compile(r"[A-Za-z0-9_]*" + SUFFIX + r"([A-Za-z0-9_]+)")


def check_name(name: str) -> str:
    """The workspace name itself, or ConfigError: letters, digits and single underscores,
    starting with a letter, at most 32 characters ('' and 'default' are the default)."""
    if name in ("", "default"):
        return DEFAULT
    if len(name) > MAX_NAME or not _NAME.match(name):
        raise ConfigError(
            f"Workspace name {name!r} is not allowed: use letters, digits and single underscores,"
            f" starting with a letter, at most {MAX_NAME} characters (e.g. 'acme_2')."
        )
    return name


def workspace_of(token: str) -> str:
    """The workspace a label, type or index name belongs to ('' for the default one)."""
    found = _NAMED_TOKEN.fullmatch(token)
    return found.group(1) if found else DEFAULT


@dataclass(frozen=True)
class Workspace:
    """One workspace's names; `Workspace('')` is the default workspace."""

    name: str = DEFAULT

    def __post_init__(self) -> None:
        check_name(self.name)

    @property
    def is_default(self) -> bool:
        """Whether this is the default workspace (today's names)."""
        return self.name == DEFAULT

    @property
    def label(self) -> str:
        """How the workspace is called to a user."""
        return self.name or "default"

    @property
    def suffix(self) -> str:
        """What every label, type and index name of the workspace ends with ('' by default)."""
        return "" if self.is_default else SUFFIX + self.name

    def token(self, canonical: str) -> str:
        """The workspace's name for a whitelisted label, type or index name."""
        return canonical + self.suffix

    def canonical(self, token: str) -> str | None:
        """The whitelisted name behind this workspace's `token`; None when it is not one of
        this workspace's (another workspace's, or not a whitelisted name at all)."""
        if self.is_default:
            return token if workspace_of(token) == DEFAULT else None
        return token[: -len(self.suffix)] if token.endswith(self.suffix) else None

    def owns(self, token: str) -> bool:
        """Whether a label or type of the database belongs to this workspace (the default one
        also owns labels that are no workspace's: entity type labels, say)."""
        return self.canonical(token) is not None

    @cached_property
    def _patterns(self) -> tuple[tuple[re.Pattern[str], str], ...]:
        found = [(re.compile(_TOKEN.format(re.escape(name))), self.token(name))
                 for name in (*LABELS, *TYPES)]
        for name in INDEXES:
            found.extend((re.compile(place.format(re.escape(name))), r"\g<1>" + self.token(name))
                         for place in _INDEX_PLACES)
        return tuple(found)

    def map_cypher(self, text: str) -> str:
        """A Cypher text with its whitelisted labels, types and index names made this
        workspace's (the default workspace's text is returned as it is)."""
        return text if self.is_default else _mapped(self, text)


@lru_cache(maxsize=4096)
def _mapped(workspace: Workspace, text: str) -> str:
    for pattern, replacement in workspace._patterns:
        text = pattern.sub(replacement, text)
    return text
