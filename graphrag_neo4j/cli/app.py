"""The `graphrag-neo4j` command line: thin wrappers that turn settings into engine calls."""

from __future__ import annotations

import importlib
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text

from graphrag_neo4j.cli.collector import collect_seldom, skip_final_collection
from graphrag_neo4j.cli.options.workspace_option import WorkspaceOption, use_workspace
from graphrag_neo4j.llm.offline.allocator import release_large_frees
from graphrag_neo4j.runtime.errors import GraphRAGError, check_text

app = typer.Typer(
    name="graphrag-neo4j",
    help="Index documents into a knowledge graph in Neo4j and ask questions over it.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console(stderr=True)


@app.command()
def init(
    directory: Annotated[Path, typer.Argument(help="Project folder to create.")] = Path(),
    force: Annotated[bool, typer.Option(help="Overwrite an existing settings file.")] = False,
) -> None:
    """Write a commented graphrag.toml and a copy of the prompts you can tune."""
    from graphrag_neo4j.cli.reference.settings_file import write_project

    config_path, prompt_copy = write_project(directory, force=force)
    console.print(Text(f"Wrote {config_path} and the prompts in {prompt_copy}/."))


@app.command("init-db")
def init_db(
    reset_vectors: Annotated[
        bool, typer.Option(help="Drop vector indexes and stored embeddings (new embedder).")
    ] = False,
    relabel: Annotated[
        bool, typer.Option(help="Set every entity's type label (:Person) from its type and"
                           " extraction.type_labels; removes them when that is false.")
    ] = False,
    workspace: WorkspaceOption = None,
) -> None:
    """Create the constraints and indexes of the graph model in Neo4j."""
    use_workspace(workspace)
    from graphrag_neo4j.engine import GraphRAG

    with GraphRAG(console=console) as rag:
        if reset_vectors:
            rag.store.reset_vectors()
            console.print("Dropped the vector indexes and every stored embedding.")
        dimensions = rag.ensure_schema()
        if relabel:
            console.print(f"Type labels set on {rag.relabel_entities():,} entities.")
    console.print(
        Text(f"Schema applied to {rag.settings.neo4j.uri} (vector dimension {dimensions}).")
    )


@app.command("settings-reference")
def settings_reference() -> None:
    """Print the settings reference (docs/settings.md): every setting, its type and default."""
    from graphrag_neo4j.cli.reference.settings_reference import render_settings_reference

    typer.echo(render_settings_reference(), nl=False)


@app.command("cli-reference")
def cli_reference() -> None:
    """Print the command reference (docs/cli.md): every command and option."""
    from graphrag_neo4j.cli.reference.command_reference import render_command_reference

    typer.echo(render_command_reference(app), nl=False)


# Subcommand -> (module, attribute, help of a command group; None for a command). Only the
# invoked one is imported: `index` need not load the query methods, nor `query` the indexers.
_SUBCOMMANDS: dict[str, tuple[str, str, str | None]] = {
    "neo4j": ("graphrag_neo4j.cli.database.neo4j_server", "app",
              "Run the bundled local Neo4j server."),
    "eval": ("graphrag_neo4j.cli.eval.retrieval", "app",
             "Measure retrieval and answer quality on a question set."),
    "workspaces": ("graphrag_neo4j.cli.database.workspaces", "app",
                   "List the workspaces of the database, or delete one."),
    "models": ("graphrag_neo4j.cli.models", "models_command", None),
    "index": ("graphrag_neo4j.cli.graph.index", "index_command", None),
    "delete": ("graphrag_neo4j.cli.graph.index", "delete_command", None),
    "documents": ("graphrag_neo4j.cli.graph.index", "documents_command", None),
    "wipe": ("graphrag_neo4j.cli.database.wipe", "wipe_command", None),
    "merges": ("graphrag_neo4j.cli.graph.index", "merges_command", None),
    "unmerge": ("graphrag_neo4j.cli.graph.index", "unmerge_command", None),
    "communities": ("graphrag_neo4j.cli.graph.communities", "communities_command", None),
    "query": ("graphrag_neo4j.cli.query", "query_command", None),
    "chat": ("graphrag_neo4j.cli.chat", "chat_command", None),
    "import-msgraphrag": ("graphrag_neo4j.cli.graph.interop", "import_msgraphrag_command", None),
    "export-parquet": ("graphrag_neo4j.cli.graph.interop", "export_parquet_command", None),
    "serve": ("graphrag_neo4j.cli.serve", "serve_command", None),
    "mcp": ("graphrag_neo4j.cli.serve", "mcp_command", None),
}


def _register_subcommands(invoked: str | None = None) -> None:
    """Add the `invoked` subcommand to the app, or every one (help, the reference, tests)."""
    names = [invoked] if invoked in _SUBCOMMANDS else list(_SUBCOMMANDS)
    for name in names:
        module, attribute, group_help = _SUBCOMMANDS[name]
        target = getattr(importlib.import_module(module), attribute)
        if group_help is None:
            app.command(name)(target)
        else:
            app.add_typer(target, name=name, help=group_help)


def _show_warnings() -> None:
    """Warnings from the engine (skipped files, malformed LLM records) as one line each."""
    from rich.logging import RichHandler

    handler = RichHandler(console=console, show_path=False, show_time=False, markup=False)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", handlers=[handler])


def main() -> None:
    """Entry point: runs the CLI and turns user mistakes into one red sentence."""
    release_large_frees()  # before anything loads: the models' large buffers are freed often
    collect_seldom()
    _show_warnings()
    _register_subcommands(sys.argv[1] if len(sys.argv) > 1 else None)
    try:
        for position, argument in enumerate(sys.argv[1:], start=1):
            check_text(argument, f"command-line argument {position}")
        app()
    except GraphRAGError as exc:
        console.print(Text.assemble(("Error: ", "red"), str(exc)), highlight=False)
        sys.exit(1)
    finally:
        skip_final_collection()
