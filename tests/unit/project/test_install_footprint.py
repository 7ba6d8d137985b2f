"""The default install (the test command's own venv) carries no torch and no CUDA wheels."""

from __future__ import annotations

import json
import re
import subprocess
import sys

HEAVY = re.compile(r"^(torch|torchvision|torchaudio|triton|nvidia-.*|.*cuda.*|tensorflow.*)$")


def _installed() -> set[str]:
    listing = subprocess.run(
        [sys.executable, "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return {row["name"].lower() for row in json.loads(listing)}


def test_pip_list_has_no_torch_or_cuda() -> None:
    installed = _installed()
    # The offline stack must be there, so an empty or broken listing cannot pass.
    assert {"onnxruntime", "tokenizers", "xllamacpp", "neo4j"} <= installed
    assert sorted(name for name in installed if HEAVY.match(name)) == []
