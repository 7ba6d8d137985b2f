"""The local server's configuration and what the launcher JVM is given (flags, args, env).

Pure functions only: building the command line and environment from a `ServerConfig` starts
nothing, so it is unit-tested directly. The password goes into the environment, never argv.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from graphrag_neo4j.database.server.build import Neo4jServerError
from graphrag_neo4j.database.server.process import LAUNCHER_MAIN
from graphrag_neo4j.settings import Neo4jSettings, setting_default
from graphrag_neo4j.settings.server import BOLT_PORT

HOST = "127.0.0.1"
PASSWORD_ENV = "GRAPHRAG_NEO4J__PASSWORD"
MIN_PASSWORD_LENGTH = 8
_SIZE = re.compile(r"^\d+[kKmMgG]?$")
# No -XX:+ExitOnOutOfMemoryError: a read query that builds a huge value inside one expression
# (which Neo4j's transaction memory limits do not track) would take the whole server down with
# it; without the flag Neo4j fails that query with OutOfMemoryError and keeps serving.
JVM_OPTIONS = (
    "-XX:+UseG1GC",
    "-XX:-OmitStackTraceInFastThrow",
    "-XX:+UnlockExperimentalVMOptions",
    "-XX:+TrustFinalNonStaticFields",
    "-XX:+DisableExplicitGC",
    "-Djdk.nio.maxCachedBufferSize=1024",
    "-Dio.netty.tryReflectionSetAccessible=true",
    "-Dlog4j2.disable.jmx=true",
    "-Dfile.encoding=UTF-8",
    "--add-opens=java.base/java.nio=ALL-UNNAMED",  # native vector index population needs it
    "--add-opens=java.base/java.io=ALL-UNNAMED",
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
    "--enable-native-access=ALL-UNNAMED",
)


@dataclass(frozen=True)
class ServerConfig:
    """Where and how the local server runs; `home` holds data/, logs/, run/ and launcher/.

    `startup_timeout_s` bounds the wait for the JVM; the one-off Maven download has its own.
    """

    home: Path
    bolt_port: int = BOLT_PORT
    http_port: int = setting_default(Neo4jSettings, "http_port")
    password: str = field(default="", repr=False)
    heap: str = setting_default(Neo4jSettings, "heap")
    pagecache: str = setting_default(Neo4jSettings, "pagecache")
    startup_timeout_s: float = 600

    @property
    def bolt_url(self) -> str:
        return f"bolt://{HOST}:{self.bolt_port}"

    @property
    def http_url(self) -> str:
        return f"http://{HOST}:{self.http_port}"

    @property
    def allowed_origin(self) -> str:
        """The one web origin the HTTP API answers CORS requests for: the Browser's own."""
        return self.http_url

    @property
    def browser_url(self) -> str:
        return f"{self.http_url}/browser/"

    @property
    def pid_file(self) -> Path:
        return self.home / "run" / "neo4j.pid"

    @property
    def temp_dir(self) -> Path:
        return self.home / "tmp"

    @property
    def ready_file(self) -> Path:
        """Written by the launcher, holding its pid, once Neo4j has fully started."""
        return self.home / "run" / "launcher.ready"


def server_config_from_settings(settings: Any) -> ServerConfig:
    """The server config from `settings.neo4j` (home, ports, SecretStr password, memory)."""
    neo4j = settings.neo4j
    return ServerConfig(
        home=Path(neo4j.home).expanduser(),
        bolt_port=int(neo4j.bolt_port),
        http_port=int(neo4j.http_port),
        password=neo4j.password.get_secret_value() if neo4j.password is not None else "",
        heap=str(neo4j.heap),
        pagecache=str(neo4j.pagecache),
    )


def validate(cfg: ServerConfig) -> None:
    """Reject settings the server would refuse, with one clear sentence each."""
    if len(cfg.password) < MIN_PASSWORD_LENGTH:
        raise Neo4jServerError(
            f"The Neo4j password must be at least {MIN_PASSWORD_LENGTH} characters long; "
            f"set neo4j.password (env {PASSWORD_ENV})."
        )
    if not _SIZE.match(cfg.heap):
        raise Neo4jServerError(f"neo4j.heap must look like 2g or 512m, not {cfg.heap!r}.")
    if cfg.bolt_port == cfg.http_port:
        raise Neo4jServerError(f"The Bolt and HTTP ports must differ (both are {cfg.bolt_port}).")


def jvm_options(cfg: ServerConfig) -> list[str]:
    """JVM flags: fixed heap, Neo4j's recommended flags, module opens, a private temp folder.

    Jetty unpacks the Browser into the temp folder on every start and leaves it behind when
    killed, so it lives under `home` (emptied before each start) instead of /tmp.
    """
    temp = f"-Djava.io.tmpdir={cfg.temp_dir.resolve()}"
    return [f"-Xms{cfg.heap}", f"-Xmx{cfg.heap}", *JVM_OPTIONS, temp]


def launcher_args(cfg: ServerConfig) -> list[str]:
    """Main class and its arguments; the password is deliberately not among them."""
    return [
        LAUNCHER_MAIN,
        "--home", str(cfg.home.resolve()),
        "--bolt-port", str(cfg.bolt_port),
        "--http-port", str(cfg.http_port),
        "--pagecache", cfg.pagecache,
    ]  # fmt: skip


def launcher_env(cfg: ServerConfig, base: dict[str, str] | None = None) -> dict[str, str]:
    """The JVM's environment: ours plus the password variable."""
    env = dict(os.environ if base is None else base)
    env[PASSWORD_ENV] = cfg.password
    return env
