"""Run the engine benchmark: the same as ``python -m engine bench`` (``make bench``)."""

import sys

from engine.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
