"""The ``svb`` command, installed with the package (``pip install svb-signal``): the same
command as the Rust binary, run in this process. ``python -m svb._cli ARGS`` runs it too."""

import sys

from svb._svb import cli_main


def main() -> None:
    """Runs ``svb`` with this process's arguments and exits with its status."""
    sys.exit(cli_main(sys.argv))


if __name__ == "__main__":
    main()
