"""Build the local Neo4j launcher once: Maven resolves the jars, javac compiles one class.

The pom.xml and Launcher.java ship inside the package
(`graphrag_neo4j/database/server/neo4j_launcher`). The first start copies them into
`<home>/launcher/`, runs `mvn -B dependency:build-classpath` (downloads Neo4j Community and
Neo4j Browser into the Maven repository, ~/.m2 by default) and `javac`, and writes a java
@argfile with the classpath. A stamp (hash of both files and the Java version) makes every later
start skip all of this.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import threading
import time
import zipfile
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from rich.console import Console

from graphrag_neo4j.runtime.errors import GraphRAGError

LAUNCHER_PACKAGE_DIR = "neo4j_launcher"
LAUNCHER_SOURCE = "src/main/java/graphragneo4j/Launcher.java"
MAVEN_TIMEOUT_S = 1800.0
MAVEN_ATTEMPTS = 3
MIN_JAVA = 17
_DOWNLOADED = re.compile(r"Downloaded from \S+: \S+/([^/\s]+) \(")


class Neo4jServerError(GraphRAGError):
    """The local Neo4j server cannot be built, started or stopped; the message says why."""


@dataclass(frozen=True)
class LauncherBuild:
    """What the JVM needs: the java binary, the classpath @argfile, the class-data archive."""

    java: Path
    argfile: Path
    cds_archive: Path

    def cds_options(self) -> list[str]:
        """AppCDS: the first run archives the loaded classes at exit, later runs map them.

        This halves start-up on 2 cores; a stale or broken archive is ignored by the JVM.
        """
        quiet = "-Xlog:cds*=error"  # signed jars make CDS warn about every skipped class
        if self.cds_archive.is_file():
            return [f"-XX:SharedArchiveFile={self.cds_archive}", quiet]
        return [f"-XX:ArchiveClassesAtExit={self.cds_archive}", quiet]


def launcher_text(relative: str) -> str:
    """A launcher file shipped inside the package (pom.xml or the Java source)."""
    launcher = files("graphrag_neo4j.database.server") / LAUNCHER_PACKAGE_DIR
    return (launcher / relative).read_text(encoding="utf-8")


def neo4j_version() -> str:
    """The Neo4j version the shipped pom.xml resolves."""
    match = re.search(r"<neo4j\.version>([^<]+)</neo4j\.version>", launcher_text("pom.xml"))
    return match.group(1) if match else "unknown"


def find_tool(name: str) -> Path:
    """A JDK/Maven tool from $JAVA_HOME/bin (java, javac) or the PATH."""
    java_home = os.environ.get("JAVA_HOME")
    if java_home and name != "mvn" and (Path(java_home) / "bin" / name).is_file():
        return Path(java_home) / "bin" / name
    found = shutil.which(name)
    if found is None:
        package = "Maven 3.6+" if name == "mvn" else f"a JDK {MIN_JAVA} or 21"
        raise Neo4jServerError(f"`{name}` was not found on the PATH; install {package} first.")
    return Path(found)


def java_version_text(java: Path) -> str:
    """The `java -version` output, after checking that the Java is new enough."""
    out = subprocess.run(
        [str(java), "-version"], capture_output=True, text=True, timeout=60, check=False
    )
    text = out.stderr + out.stdout
    major = parse_java_version(text)
    if major < MIN_JAVA:
        raise Neo4jServerError(
            f"Neo4j 5.26 needs Java {MIN_JAVA} or 21 but {java} is Java {major or 'unknown'}."
        )
    return text


def parse_java_version(text: str) -> int:
    """Major version from `java -version` output ('1.8.0' -> 8, '17.0.2' -> 17), 0 if none."""
    match = re.search(r'version "(\d+)(?:\.(\d+))?', text)
    if match is None:
        return 0
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def ensure_launcher(home: Path, console: Console) -> LauncherBuild:
    """Resolve and compile the launcher under `home/launcher` unless already done."""
    java = find_tool("java")
    version = java_version_text(java)
    cache = home / "launcher"
    build = LauncherBuild(java=java, argfile=cache / "java.args", cds_archive=cache / "neo4j.jsa")
    pom, source = launcher_text("pom.xml"), launcher_text(LAUNCHER_SOURCE)
    stamp = hashlib.sha256(f"{pom}\0{source}\0{version}".encode()).hexdigest()
    stamp_file = cache / "stamp"
    if stamp_file.is_file() and stamp_file.read_text() == stamp and _classpath_intact(cache):
        return build
    stamp_file.unlink(missing_ok=True)
    build.cds_archive.unlink(missing_ok=True)
    (cache / "build").mkdir(parents=True, exist_ok=True)
    (cache / "build" / "pom.xml").write_text(pom, encoding="utf-8")
    java_file = cache / "build" / "Launcher.java"
    java_file.write_text(source, encoding="utf-8")
    classpath = resolve_classpath(cache, console)
    launcher_jar = _compile(java_file, cache / "classes", classpath)
    build.argfile.write_text(argfile_text([launcher_jar, *classpath]), encoding="utf-8")
    stamp_file.write_text(stamp)
    return build


def argfile_text(classpath: Iterable[Path]) -> str:
    """A java @argfile line giving the classpath, quoted for paths with spaces."""
    joined = os.pathsep.join(str(path) for path in classpath)
    return '-cp "' + joined.replace("\\", "\\\\").replace('"', '\\"') + '"\n'


def _classpath_intact(cache: Path) -> bool:
    listing = cache / "classpath.txt"
    if not listing.is_file() or not (cache / "launcher.jar").is_file():
        return False
    return all(Path(jar).is_file() for jar in listing.read_text().split(os.pathsep) if jar)


def resolve_classpath(cache: Path, console: Console) -> list[Path]:
    """Run Maven (retrying transient failures) and return the resolved jars."""
    mvn = find_tool("mvn")
    listing = cache / "classpath.txt"
    console.print(
        f"Resolving Neo4j Community {neo4j_version()} and Neo4j Browser with Maven "
        "(first start only; downloads ~150 MB into the Maven repository)..."
    )
    started = time.monotonic()
    for attempt in range(1, MAVEN_ATTEMPTS + 1):
        downloads, tail = _run_maven(mvn, cache / "build" / "pom.xml", listing, console)
        if downloads >= 0:
            jars = [Path(jar) for jar in listing.read_text().split(os.pathsep) if jar.strip()]
            console.print(
                f"Maven resolved {len(jars)} jars ({downloads} files downloaded) "
                f"in {time.monotonic() - started:.0f} s."
            )
            return jars
        if attempt < MAVEN_ATTEMPTS:
            console.print(f"[yellow]Maven failed (attempt {attempt}), retrying...[/yellow]")
    last = "\n".join(tail)
    raise Neo4jServerError(f"Maven could not resolve the Neo4j jars; its last lines were:\n{last}")


def _run_maven(mvn: Path, pom: Path, listing: Path, console: Console) -> tuple[int, list[str]]:
    """One Maven run; returns (files downloaded or -1 on failure, last output lines)."""
    command = [
        str(mvn), "-B", "-f", str(pom), "dependency:build-classpath",
        f"-Dmdep.outputFile={listing}", "-Dmaven.wagon.http.retryHandler.count=5",
        "-Dmaven.wagon.httpconnectionManager.ttlSeconds=30",
    ]  # fmt: skip
    tail: deque[str] = deque(maxlen=25)
    downloads = 0
    with console.status("Maven: resolving...") as progress, subprocess.Popen(
        command, cwd=pom.parent, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL, text=True, errors="replace",
    ) as proc:  # fmt: skip
        watchdog = threading.Timer(MAVEN_TIMEOUT_S, proc.kill)  # a hung download ends here
        watchdog.start()
        for line in proc.stdout or ():
            tail.append(line.rstrip())
            found = _DOWNLOADED.search(line)
            if found:
                downloads += 1
                progress.update(f"Maven: {downloads} files downloaded, last {found.group(1)}")
        watchdog.cancel()
        ok = proc.wait() == 0 and listing.is_file()
    return (downloads if ok else -1), list(tail)


def _compile(java_file: Path, classes: Path, classpath: list[Path]) -> Path:
    """Compile the launcher and jar it (class-data sharing accepts only jars on the classpath)."""
    if classes.exists():
        shutil.rmtree(classes)
    argfile = java_file.parent / "javac.args"
    argfile.write_text(argfile_text(classpath), encoding="utf-8")
    command = [
        str(find_tool("javac")), "--release", str(MIN_JAVA), "-encoding", "UTF-8",
        f"@{argfile}", "-d", str(classes), str(java_file),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise Neo4jServerError(
            f"javac could not compile the Neo4j launcher:\n{done.stderr[-2000:]}"
        )
    jar = classes.parent / "launcher.jar"
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(classes.rglob("*.class")):
            archive.write(path, path.relative_to(classes).as_posix())
    return jar
