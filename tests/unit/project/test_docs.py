"""The docs and the code name the same things: what exists is documented, what is named exists.

Conventions the docs follow (README.md, ARCHITECTURE.md and docs/*.md):
- a command is written `graphrag-neo4j <command> [--option ...]` (in a code block or backticks);
  options after it must be that command's; a backticked `--option` alone must be some command's;
- a route is a backticked `METHOD /path`, with the path's own parameter names;
- a setting is a backticked `section.field` (or `section.field = value`), a section `[section]`,
  an environment variable `GRAPHRAG_SECTION__FIELD`; module paths are written with slashes;
- a query method has a `## \\`name\\`` heading in docs/query-methods.md and a row in README's
  method table; an MCP tool is backticked in docs/serving.md;
- docs/settings.md and docs/cli.md are generated (`graphrag-neo4j settings-reference`,
  `graphrag-neo4j cli-reference`) and must equal what the code renders now.
"""

from __future__ import annotations

import asyncio
import difflib
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from graphrag_neo4j.api.app import create_app
from graphrag_neo4j.api.mcp.server import create_mcp_server
from graphrag_neo4j.cli.app import _register_subcommands, app
from graphrag_neo4j.cli.reference.command_reference import (
    commands,
    option_names,
    render_command_reference,
)
from graphrag_neo4j.cli.reference.settings_reference import (
    env_var,
    render_settings_reference,
    sections,
    setting_names,
)
from graphrag_neo4j.indexing.extraction.registry import extraction_method_names
from graphrag_neo4j.query.registry import method_names
from graphrag_neo4j.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs"
GENERATED = {"settings.md", "cli.md"}
PROGRAM = "graphrag-neo4j"
SPAN = re.compile(r"`([^`\n]+)`")
ROUTE = re.compile(r"^(GET|POST|PUT|PATCH|DELETE) (/\S*)$")
OPTION = re.compile(r"(?<![\w-])(--?[a-zA-Z][\w-]*)")
README_START = (  # the two commands and their comments, exactly as they have always read
    "```bash\n"
    "./scripts/demo.sh     # (1) set up everything, start Neo4j, index the bundled sample, ask a"
    " local and a global question\n"
    "./scripts/test.sh     # (2) set up everything, start a test Neo4j, run ruff, mypy and pytest,"
    " stop that Neo4j\n"
    "```"
)
USE = re.compile(r"(?:^|(?<=[\s(\"'`]))(?:\S*bin/)?graphrag-neo4j[ \t]+([a-z][^\n]*)")
ENV_VAR = re.compile(r"\bGRAPHRAG_[A-Z0-9_]+__[A-Z0-9_]+\b")
FIGURE = re.compile(r"\b\d+m\d+s\b|\b\d[\d,.]*\s?(?:ms|s|min|%|tokens/s|words/s|req/s)(?![\w/])")


def doc_files(*, with_architecture: bool = True) -> list[Path]:
    """The hand-written and generated pages the conventions apply to."""
    pages = [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
    return [*pages, ROOT / "ARCHITECTURE.md"] if with_architecture else pages


def spans(path: Path) -> Iterator[tuple[int, str]]:
    """Every backticked span and every code-block line of a page, with its line number."""
    in_block = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.lstrip().startswith("```"):
            in_block = not in_block
            continue
        if in_block:
            yield number, line
        else:
            yield from ((number, match.group(1)) for match in SPAN.finditer(line))


def where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


@cache
def cli_commands() -> dict[str, set[str]]:
    """Command words ('eval retrieval') -> its option spellings."""
    _register_subcommands()
    return {path: {*option_names(command), "--help"} for path, command in commands(app)}


def extraction_methods() -> set[str]:
    """The extraction methods of their registry."""
    return set(extraction_method_names())


def method_values(command: str) -> set[str] | None:
    """The values `--method` takes for a command (None: not checked)."""
    if command == "index":
        return extraction_methods()
    return set(method_names()) if command in ("query", "chat", "eval retrieval") else None


def command_uses(text: str) -> Iterator[tuple[str, list[str], str]]:
    """(command words, options, rest) of each `graphrag-neo4j COMMAND ...` on a line or span."""
    for match in USE.finditer(text):
        piece = match.group(1).split(PROGRAM)[0].split("#")[0]
        command = ""
        for word in piece.split():
            # `start|stop` (in a table cell `start\|stop`) names two; the first is checked.
            candidate = f"{command} {word.replace(chr(92), '').split('|')[0]}".strip()
            if not any(known == candidate or known.startswith(candidate + " ")
                       for known in cli_commands()):
                break
            command = candidate
        yield command or piece.split()[0], OPTION.findall(piece), piece


def test_settings_reference_is_current(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    _assert_current(DOCS / "settings.md", render_settings_reference(), "settings-reference")


def test_cli_reference_is_current() -> None:
    _register_subcommands()
    _assert_current(DOCS / "cli.md", render_command_reference(app), "cli-reference")


def _assert_current(page: Path, rendered: str, command: str) -> None:
    written = page.read_text(encoding="utf-8") if page.is_file() else ""
    diff = "\n".join(list(difflib.unified_diff(
        written.splitlines(), rendered.splitlines(), "written", "code", lineterm=""))[:40])
    assert written == rendered, (
        f"{page.relative_to(ROOT)} differs from the code; run "
        f"`{PROGRAM} {command} > {page.relative_to(ROOT)}`:\n{diff}")


def test_every_setting_is_in_the_settings_reference() -> None:
    reference = (DOCS / "settings.md").read_text(encoding="utf-8")
    missing = [name for name in setting_names() if f"`{name}`" not in reference]
    assert missing == [], f"docs/settings.md lacks settings {missing}"


def test_every_command_is_shown_in_a_guide() -> None:
    guides = [p for p in doc_files(with_architecture=False) if p.name not in GENERATED]
    used = {command for page in guides for _, text in spans(page)
            for command, _, _ in command_uses(text)}
    missing = sorted(set(cli_commands()) - used)
    assert missing == [], (
        f"commands never shown as `{PROGRAM} COMMAND` in README.md or docs/ (beside the "
        f"generated docs/cli.md): {missing}")


def test_named_commands_options_and_methods_exist() -> None:
    known = cli_commands()
    every_option = set().union(*known.values())
    wrong = []
    for page in doc_files():
        for line, text in spans(page):
            for command, options, rest in command_uses(text):
                if command not in known:
                    wrong.append(f"{where(page, line)}: no command `{PROGRAM} {command}`")
                    continue
                wrong += [f"{where(page, line)}: `{PROGRAM} {command}` has no option {option}"
                          for option in options if option not in known[command]]
                wrong += _wrong_method_values(command, rest, where(page, line))
            if text.startswith("-") and PROGRAM not in text:
                option = OPTION.match(text)
                if option and option.group(1) not in every_option:
                    wrong.append(f"{where(page, line)}: no command has option {option.group(1)}")
    assert wrong == [], "\n".join(wrong)


def _wrong_method_values(command: str, rest: str, place: str) -> list[str]:
    allowed = method_values(command)
    found = re.search(r"--method[ =]([\w,|]+)", rest)
    if allowed is None or found is None or found.group(1).isupper():
        return []
    named = set(re.split(r"[,|]", found.group(1))) - {""}
    return [f"{place}: `{PROGRAM} {command} --method` has no method {name!r}"
            for name in sorted(named - allowed)]


@cache
def routes() -> set[str]:
    """`METHOD /path` of every route the HTTP API serves."""
    api = create_app(SimpleNamespace(settings=Settings()))  # type: ignore[arg-type]
    return {f"{verb.upper()} {path}" for path, operations in api.openapi()["paths"].items()
            for verb in operations}


def test_every_route_is_documented_and_every_documented_route_exists() -> None:
    named: dict[str, str] = {}
    for page in doc_files():
        for line, text in spans(page):
            if ROUTE.match(text):
                named.setdefault(text, where(page, line))
    missing = sorted(routes() - set(named))
    invented = sorted(f"{place}: {route}" for route, place in named.items()
                      if route not in routes())
    assert (missing, invented) == ([], []), (
        f"routes served but not in docs (write `METHOD /path`): {missing}\n"
        f"routes named in docs that the API does not serve: {invented}")


def test_every_query_method_is_documented_and_every_documented_one_exists() -> None:
    page = (DOCS / "query-methods.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## `([^`]+)`", page, flags=re.MULTILINE)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z_]+)` \|", readme, flags=re.MULTILINE)
    registered = method_names()
    assert sorted(headings) == sorted(registered), (
        f"docs/query-methods.md headings {headings} != the registry's methods {registered}")
    assert sorted(rows) == sorted(registered), (
        f"README.md's method table rows {rows} != the registry's methods {registered}")


def test_every_extraction_method_is_documented_and_every_documented_one_exists() -> None:
    page = (DOCS / "indexing.md").read_text(encoding="utf-8")
    headings = re.findall(r"^### `([^`]+)`", page, flags=re.MULTILINE)
    assert sorted(headings) == sorted(extraction_methods()), (
        f"docs/indexing.md headings {headings} != the registry's methods {extraction_methods()}")


def test_every_mcp_tool_is_documented() -> None:
    server = create_mcp_server(SimpleNamespace(settings=Settings()))  # type: ignore[arg-type]
    tools = [tool.name for tool in asyncio.run(server.list_tools())]
    page = (DOCS / "serving.md").read_text(encoding="utf-8")
    missing = [name for name in tools if f"`{name}`" not in page]
    assert missing == [], f"docs/serving.md lacks MCP tools {missing}"


@cache
def settings_index() -> tuple[set[str], set[str], set[str]]:
    """(dotted setting names, dotted section names, environment variables)."""
    names = set(setting_names())
    section_names = {name for name, _ in sections() if name}
    env = {env_var(*name.rsplit(".", 1)) if "." in name else env_var("", name) for name in names}
    return names, section_names, env


def test_named_settings_exist() -> None:
    names, section_names, env = settings_index()
    first_parts = {name.split(".")[0] for name in section_names}
    wrong = []
    for page in doc_files(with_architecture=False):
        for line, text in spans(page):
            wrong += [f"{where(page, line)}: no setting for {var}"
                      for var in ENV_VAR.findall(text) if var not in env]
            table = re.fullmatch(r"\[([a-z_.]+)\]", text)
            if table and table.group(1) not in section_names:
                wrong.append(f"{where(page, line)}: no settings section [{table.group(1)}]")
            dotted = re.fullmatch(r"([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+)(?:\s*=.*)?", text)
            if dotted and dotted.group(1).split(".")[0] in first_parts:
                name = dotted.group(1)
                if name not in names and name not in section_names:
                    wrong.append(f"{where(page, line)}: no setting `{name}`")
    assert wrong == [], "\n".join(wrong)


def test_readme_starts_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.split("\n\n")[1] == README_START, "README.md must start with the two commands"


def test_the_readme_shows_the_questions_the_demo_asks() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    demo = (ROOT / "scripts" / "demo.sh").read_text(encoding="utf-8")
    shown = re.findall(r"^== \w+ question: .+$", readme, re.MULTILINE)
    asked = re.findall(r'^echo "(== \w+ question: .+)"$', demo, re.MULTILINE)
    assert shown and shown == asked, f"README.md shows {shown}; scripts/demo.sh asks {asked}"


def test_every_readme_figure_is_in_the_benchmarks_page() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    benchmarks = (DOCS / "benchmarks.md").read_text(encoding="utf-8")
    missing = sorted({figure for figure in FIGURE.findall(readme) if figure not in benchmarks})
    assert missing == [], f"README.md figures missing from docs/benchmarks.md: {missing}"


def package_rooms() -> list[str]:
    """Every package folder under graphrag_neo4j/, as its path there (`query/drift`)."""
    package = ROOT / "graphrag_neo4j"
    return sorted(
        found.parent.relative_to(package).as_posix()
        for found in package.rglob("__init__.py") if found.parent != package
    )


def unnamed_rooms(architecture: str, rooms: list[str]) -> list[str]:
    """The rooms the page names neither by their path (`query/drift/`) nor as `drift/`."""
    return [
        room for room in rooms
        if f"{room}/" not in architecture and f"`{room.rsplit('/', 1)[-1]}/`" not in architecture
    ]


def test_architecture_names_every_package_folder() -> None:
    architecture = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rooms = package_rooms()
    assert "query/drift" in rooms and "evaluation" in rooms
    assert unnamed_rooms(architecture, rooms) == []


def test_the_room_check_sees_a_room_left_out() -> None:
    page = "`query/` holds `drift/` and llm/costs/ too."
    assert unnamed_rooms(page, ["query", "query/drift", "llm/costs", "query/local"]) == [
        "query/local"
    ]


def test_relative_links_point_at_files() -> None:
    wrong = []
    for page in doc_files():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", line):
                if not re.match(r"[a-z]+://", target) and not (page.parent / target).exists():
                    wrong.append(f"{where(page, number)}: broken link {target}")
    assert wrong == [], "\n".join(wrong)


# A benchmark named by path (`benchmarks/query/search.py`, a data file) or as a module
# (`-m benchmarks.query.search`); `ROOM/NAME` placeholders are upper case and not matched.
BENCHMARK_FILE = re.compile(r"(?<![\w./-])benchmarks/[a-z0-9_./-]*\.(?:py|json)\b")
BENCHMARK_MODULE = re.compile(r"-m (benchmarks(?:\.[a-z_][a-z0-9_]*)+)")


def missing_benchmarks(text: str) -> list[str]:
    """The benchmark files and modules `text` names that the repository does not hold."""
    named = [*BENCHMARK_FILE.findall(text),
             *(f"{module.replace('.', '/')}.py" for module in BENCHMARK_MODULE.findall(text))]
    return [name for name in named if not (ROOT / name).is_file()]


def test_named_benchmarks_exist() -> None:
    """Every command of the docs and of the benchmarks' own docstrings runs a script that exists
    (the history keeps the commands of its day)."""
    pages = [page for page in doc_files() if page.name != "benchmarks-history.md"]
    wrong = [
        f"{where(page, number)}: no {name}"
        for page in [*pages, *sorted((ROOT / "benchmarks").rglob("*.py"))]
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for name in missing_benchmarks(line)
    ]
    assert wrong == [], "\n".join(wrong)


def test_the_checks_catch_mistakes() -> None:
    (command, options, rest), = command_uses("run graphrag-neo4j query 'Q' --method nope --bogus")
    assert command == "query" and options == ["--method", "--bogus"]
    assert "--bogus" not in cli_commands()["query"]
    assert _wrong_method_values(command, rest, "here") == [
        "here: `graphrag-neo4j query --method` has no method 'nope'"]
    assert list(command_uses("~/.cache/graphrag-neo4j and `graphrag-neo4j`")) == []
    assert "search.nope" not in settings_index()[0] and setting_names()
    assert missing_benchmarks("run benchmarks/scale.py, then -m benchmarks.search --runs 3;"
                              " benchmarks/ROOM/NAME.py and -m benchmarks.ROOM.NAME") == [
        "benchmarks/scale.py", "benchmarks/search.py"]
    assert missing_benchmarks("`python benchmarks/query/search.py` or -m benchmarks.corpora") == []


# `"GRAPHRAG_NEO4J__PASSWORD": "x"` in a client's JSON, or `..._PASSWORD=x` in a shell line
# (`...` and `$VAR` are placeholders).
SECRET_IN_EXAMPLE = re.compile(
    r"_(?:PASSWORD|API_KEY)(?:\"\s*:\s*\"[^\"$]|=(?!\.\.\.|\$)[^\s`])"
)


def test_no_example_holds_a_secret_value() -> None:
    """Examples name where a secret comes from, never a literal one a reader would copy."""
    found = [f"{path.name}:{number}: {line.strip()}" for path in doc_files()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if SECRET_IN_EXAMPLE.search(line)]
    assert found == []


TOML_BLOCK = re.compile(r"```toml\n(.*?)```", flags=re.DOTALL)


def test_every_settings_example_loads(tmp_path: Path) -> None:
    blocks = [block for page in [ROOT / "README.md", *DOCS.glob("*.md")]
              for block in TOML_BLOCK.findall(page.read_text(encoding="utf-8"))]
    assert blocks  # the guides show settings files
    for number, block in enumerate(blocks):
        path = tmp_path / f"example{number}.toml"
        path.write_text(block, encoding="utf-8")
        load_settings(path)  # a ConfigError names the example's mistake

