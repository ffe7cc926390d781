"""Keep the tests' copy of the shared reference material in step with ``../shared``.

The tests compare the engine with the rules cases (``conformance/``), the reference data
(``reference/``) and one table of ``RULES.md``. They read ``../shared`` when it is there and
the copy in ``tests/shared_copy/`` otherwise, so a fresh clone runs every test. The copy
holds the files exactly as they are, and ``SHA256SUMS`` (in ``sha256sum`` format) lists
them, so an edit to the copy shows too.

    python tools/refresh_shared.py            # copy ../shared (or $TITAN_SHARED) into the tests
    python tools/refresh_shared.py --check    # exit 1, naming each file, if the copy is stale
    python tools/refresh_shared.py SOURCE --into DIR    # another source or copy
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_COPY = REPO / "tests" / "shared_copy"
KEPT = ("RULES.md", "conformance/*.json", "conformance/README.md", "reference/*.json")
KEPT += ("reference/README.md",)
"""The files the tests read (and the notes saying what they hold), as glob patterns."""
SUMS = "SHA256SUMS"


def default_source() -> Path:
    return Path(os.environ.get("TITAN_SHARED", REPO.parent / "shared"))


def kept(root: Path) -> dict[str, bytes]:
    """The kept files under ``root``, by path relative to it (with ``/``)."""
    found: dict[str, bytes] = {}
    for pattern in KEPT:
        for path in sorted(root.glob(pattern)):
            if path.is_file():
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def checksums(files: dict[str, bytes]) -> str:
    """``SHA256SUMS`` for ``files``: one ``<sha256>  <path>`` line each, sorted by path."""
    lines = [f"{hashlib.sha256(data).hexdigest()}  {name}" for name, data in sorted(files.items())]
    return "\n".join(lines) + "\n"


def differences(source: Path, copy: Path) -> list[str]:
    """What makes ``copy`` stale against ``source``: one line per file (empty: in step)."""
    original, copied = kept(source), kept(copy)
    found = [f"missing from the copy: {n}" for n in sorted(original.keys() - copied.keys())]
    found += [f"not in the source: {n}" for n in sorted(copied.keys() - original.keys())]
    found += [f"differs: {n}" for n in sorted(original) if n in copied and copied[n] != original[n]]
    sums = copy / SUMS
    if not found and (
        not sums.is_file() or sums.read_text(encoding="utf-8") != checksums(original)
    ):
        found.append(f"{SUMS} does not list the files as they are")
    return found


def refresh(source: Path, copy: Path) -> list[str]:
    """Make ``copy`` hold exactly the kept files of ``source``; what changed, a line each."""
    original, copied = kept(source), kept(copy)
    changes = []
    for name in sorted(copied.keys() - original.keys()):
        (copy / name).unlink()
        changes.append(f"removed {name}")
    for name, data in original.items():
        if copied.get(name) != data:
            target = copy / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            changes.append(f"{'updated' if name in copied else 'added'} {name}")
    (copy / SUMS).write_text(checksums(original), encoding="utf-8")
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", nargs="?", type=Path, default=None, help="default ../shared")
    parser.add_argument("--into", type=Path, default=DEFAULT_COPY, help="the copy to refresh")
    parser.add_argument("--check", action="store_true", help="only report a stale copy")
    args = parser.parse_args(argv)
    source: Path = args.source or default_source()
    if not kept(source):
        print(f"no shared material in {source}", file=sys.stderr)
        return 2
    if args.check:
        stale = differences(source, args.into)
        for line in stale:
            print(line)
        return 1 if stale else 0
    for line in refresh(source, args.into):
        print(line)
    print(f"{args.into} holds {len(kept(source))} files of {source}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
