"""The README's Python example and the package docstrings' examples, run as they are written
in a directory holding the files they name (copies of the conformance data): an example that
no longer works fails here. The Dask part runs on a 2-worker cluster, its result compared with
the same computation in pandas on one process."""

import os
import re
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest

import svb
import svb.dask

from conftest import ROOT

pytest.importorskip("distributed")


README_READ = "0000173c-bf67-44e7-9a9c-1ad0bc728e74"


def example_files(data, into):
    """The files the examples name, in `into`: `b.pod5` holds the reads of `a.pod5` but the
    one the README picks (two inputs of a subset hold distinct reads)."""
    pod5 = data / "pod5" / "multi_fast5_zip.pod5"
    pod5_v4 = data / "pod5" / "multi_fast5_zip_v4.pod5"
    for src, name in [(pod5, "reads.pod5"), (pod5, "a.pod5"), (pod5, "runs/a.pod5"),
                      (pod5_v4, "runs/b.pod5")]:
        (into / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, into / name)
    others = [i for i in svb.open(pod5).read_ids if i != README_READ]
    svb.subset([pod5], others, into / "b.pod5")


def readme_python():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python", 1)[1]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the README's Python block was not found"
    return blocks[0]


def docstring_examples(module):
    """The indented blocks of a module's docstring (its examples), dedented."""
    out, block = [], []
    for line in (module.__doc__ + "\n").splitlines():
        if line.startswith("    ") or (block and not line.strip()):
            block.append(line)
        elif block:
            out.append(textwrap.dedent("\n".join(block)))
            block = []
    return out


def channel_means(folder):
    """Per channel, the mean of the reads' mean pA and of their lengths, on one process."""
    rows = []
    for path in sorted(folder.glob("*.pod5")):
        for read in svb.open(path):
            pa = read.signal_pa().astype(np.float64)
            rows.append((read.channel, pa.mean(), len(pa)))
    df = pd.DataFrame(rows, columns=["channel", "signal_mean_pa", "signal_length"])
    return df.groupby("channel")[["signal_mean_pa", "signal_length"]].mean()


def readme_python_interpreter():
    """The Python that runs the README's block: SVB_README_PYTHON's (CI's fresh venv holding
    the wheel and its [dask] extra alone, as a user who follows the README has), else this
    one; under CI=true it must be named."""
    python = os.environ.get("SVB_README_PYTHON")
    if python is None and os.environ.get("CI") == "true":
        pytest.fail("SVB_README_PYTHON is not set: .ci/run makes a fresh venv for the README")
    return python or sys.executable


def test_readme_python_example_runs_as_a_script(data, tmp_path):
    """The block saved as a file and run by `python FILE` (Dask's worker processes import it
    again: its `__main__` guard is what keeps them from redoing its work)."""
    example_files(data, tmp_path)
    script = tmp_path / "example.py"
    script.write_text(readme_python())
    run = subprocess.run([readme_python_interpreter(), str(script)], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-4000:]
    # What it wrote is there and reads back.
    assert len(svb.open(tmp_path / "converted.blow5")) == len(svb.open(tmp_path / "reads.pod5"))
    assert svb.open(tmp_path / "picked.pod5").read_ids == [README_READ]
    assert svb.open(tmp_path / "new.pod5").read_ids == [README_READ]
    merged = svb.open(tmp_path / "merged.pod5").read_ids
    assert sorted(merged) == sorted(svb.open(tmp_path / "a.pod5").read_ids)
    # The cluster's answer is the one-process answer.
    got = pd.read_csv(tmp_path / "channel_means.csv", index_col="channel").sort_index()
    want = channel_means(tmp_path / "runs")
    assert list(got.index) == list(want.index)
    for column in ["signal_mean_pa", "signal_length"]:
        assert got[column].to_numpy() == pytest.approx(want[column].to_numpy(), rel=1e-9)


@pytest.mark.parametrize("module", [svb, svb.dask], ids=["svb", "svb.dask"])
def test_docstring_examples_run(module, data, tmp_path, monkeypatch):
    example_files(data, tmp_path)
    monkeypatch.chdir(tmp_path)
    examples = docstring_examples(module)
    assert examples, f"{module.__name__}'s docstring has no example"
    for code in examples:
        exec(compile(code, f"{module.__name__} docstring", "exec"), {})
