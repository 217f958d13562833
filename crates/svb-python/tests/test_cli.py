"""The ``svb`` command the package installs (``pip install svb-signal``): the Rust binary's
command, run in the package's extension module, as a console script and as ``python -m
svb._cli``."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import svb

README_IDS = ["0000173c-bf67-44e7-9a9c-1ad0bc728e74", "0d624d4b-671f-40b8-9798-84f2ccc4d7fc"]


def run(args, **kw):
    return subprocess.run(
        [sys.executable, "-m", "svb._cli", *args], capture_output=True, text=True, **kw
    )


def test_the_command_runs_in_the_package(tmp_path):
    """--version, `svb example` and the commands reading what it wrote; an error's status."""
    out = run(["--version"])
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"svb {svb.__version__}"
    out = run(["example", str(tmp_path)])
    assert out.returncode == 0, out.stderr
    view = run(["view", str(tmp_path / "reads.pod5")])
    assert view.returncode == 0, view.stderr
    for read_id in README_IDS:
        assert read_id in view.stdout
    with svb.open(tmp_path / "reads.blow5") as r:
        assert len(r) == 10
    again = run(["example", str(tmp_path)])
    assert again.returncode == 1
    assert "exists (--force replaces it)" in again.stderr


def test_the_console_script_is_installed():
    """`svb` beside the interpreter, where pip puts a package's console scripts."""
    bindir = Path(sys.executable).parent
    script = shutil.which("svb", path=str(bindir))
    if script is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"no svb console script in {bindir}")
        pytest.skip("skipped: the package is not installed with its scripts here")
    out = subprocess.run([script, "--version"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"svb {svb.__version__}"
