"""The conformance data (../shared/data or SVB_TEST_DATA), read in place; where it is missing
the tests are skipped, except with CI=true, where that is a failure."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def data_dir():
    d = Path(os.environ.get("SVB_TEST_DATA", ROOT / ".." / "shared" / "data"))
    if d.is_dir():
        return d
    if os.environ.get("CI") == "true":
        pytest.fail(f"conformance data not found at {d} (set SVB_TEST_DATA)")
    pytest.skip("skipped: no conformance data")


@pytest.fixture(scope="session")
def data():
    return data_dir()


@pytest.fixture(scope="session")
def pod5_files(data):
    return sorted((data / "pod5").glob("*.pod5"))


@pytest.fixture(scope="session")
def blow5_files(data):
    return sorted((data / "blow5").rglob("*.blow5"))


@pytest.fixture(scope="session")
def slow5_repos():
    """slow5lib's and slow5tools' test data: SVB_SLOW5_REPOS, else the shared data's
    slow5-repos; skipped where neither is (a failure under CI=true)."""
    d = Path(os.environ.get("SVB_SLOW5_REPOS", data_dir() / "slow5-repos"))
    if (d / "slow5tools" / "test").is_dir():
        return d
    if os.environ.get("CI") == "true":
        pytest.fail(f"slow5lib's and slow5tools' test data not found at {d} (SVB_SLOW5_REPOS)")
    pytest.skip("skipped: no slow5 repositories")
