"""Every setting of the engine, each default declared once, loaded explicitly from file and env.

One module per part of the settings file; every name is importable from here as well.
"""

from graphrag_neo4j.settings.base import (
    ANSWER_CONTEXT,
    PER_QUERY,
    REPORT_CONTEXT,
    SETTINGS_ONLY,
    TUNABLE,
    context_budgets,
    setting_default,
)
from graphrag_neo4j.settings.evaluation import EvalSettings
from graphrag_neo4j.settings.extraction import (
    ExtractionSchemaSettings,
    ExtractionSettings,
    FastExtractionSettings,
)
from graphrag_neo4j.settings.indexing import ChunkingSettings, CommunitySettings, ExecutionSettings
from graphrag_neo4j.settings.loading import (
    CONFIG_ENV_VAR,
    CONFIG_FILE_NAME,
    PROMPTS_FOLDER_NAME,
    Settings,
    find_config_file,
    load_settings,
)
from graphrag_neo4j.settings.models import EmbeddingSettings, LLMSettings, LongTexts
from graphrag_neo4j.settings.renamed import (
    RENAMED_SEARCH_SETTINGS,
    RENAMED_SETTINGS_REMOVED_IN,
    moved_search_names,
    renamed_setting_line,
)
from graphrag_neo4j.settings.search import SearchSettings
from graphrag_neo4j.settings.search_methods import (
    CypherSearchSettings,
    DriftSearchSettings,
    GlobalSearchSettings,
    HopsSearchSettings,
    HybridSearchSettings,
    LocalSearchSettings,
    NaiveSearchSettings,
    PprSearchSettings,
)
from graphrag_neo4j.settings.search_options import (
    merged_search,
    per_query_rule,
    search_overrides,
    search_setting_names,
)
from graphrag_neo4j.settings.server import PASSWORD_FILE_NAME, Neo4jSettings, ServerSettings

__all__ = [
    "ANSWER_CONTEXT", "CONFIG_ENV_VAR", "CONFIG_FILE_NAME", "PASSWORD_FILE_NAME", "PER_QUERY",
    "PROMPTS_FOLDER_NAME", "RENAMED_SEARCH_SETTINGS", "RENAMED_SETTINGS_REMOVED_IN",
    "REPORT_CONTEXT", "SETTINGS_ONLY", "TUNABLE", "ChunkingSettings", "CommunitySettings",
    "CypherSearchSettings", "DriftSearchSettings", "EmbeddingSettings", "EvalSettings",
    "ExecutionSettings", "ExtractionSchemaSettings", "ExtractionSettings",
    "FastExtractionSettings", "GlobalSearchSettings", "HopsSearchSettings",
    "HybridSearchSettings", "LLMSettings", "LocalSearchSettings", "LongTexts",
    "NaiveSearchSettings", "Neo4jSettings", "PprSearchSettings", "SearchSettings",
    "ServerSettings", "Settings", "context_budgets", "find_config_file", "load_settings",
    "merged_search", "moved_search_names", "per_query_rule", "renamed_setting_line",
    "search_overrides", "search_setting_names", "setting_default",
]
