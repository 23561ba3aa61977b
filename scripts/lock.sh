#!/usr/bin/env bash
# Regenerate the hashed lock files from pyproject.toml's ranges (see README, "Dependencies and the lock").
#
#   python3 -m venv /tmp/uv && /tmp/uv/bin/pip install uv   # uv is a tool here, never a dependency
#   UV=/tmp/uv/bin/uv scripts/lock.sh                         # add --upgrade to take newer versions
#
# Every lock pins every package, setuptools and wheel included (the project is built with
# --no-build-isolation from them), with the hash of every file PyPI has for that version, and
# resolves for every platform (--universal) on Python 3.11 and later.
set -euo pipefail
cd "$(dirname "$0")/.."
UV=${UV:-uv}
build_tools=$'setuptools>=77\nwheel'
compile() {
    local out=$1
    shift
    echo "$build_tools" | "$UV" pip compile --quiet --universal --python-version 3.11 \
        --generate-hashes --no-header \
        --output-file "$out" pyproject.toml - "$@"
}
compile requirements.txt "${@}"
compile requirements-demo.txt --extra demo "${@}"
compile requirements-dev.txt --extra dev --extra demo "${@}"
