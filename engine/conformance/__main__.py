"""``python -m engine.conformance FILE...``: answer every case, one JSON line each.

Prints ``{"id": ..., "got": ...}`` per case (or ``{"id": ..., "unsupported": why}``), then,
when the cases carry ``expect``, ``N passed, M failed``; exits non-zero on any failure.
An unsupported case counts as failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.conformance import Unsupported, answer_case, check


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.conformance", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path, help="conformance case files (JSON)")
    parser.add_argument("--kind", action="append", help="answer only cases of this kind")
    parser.add_argument("--failures", action="store_true", help="explain failures on stderr")
    args = parser.parse_args(argv)
    passed = failed = 0
    graded = False
    for path in args.files:
        for case in json.loads(path.read_text(encoding="utf-8")):
            if args.kind and case["kind"] not in args.kind:
                continue
            try:
                got = answer_case(case)
            except Unsupported as exc:
                print(json.dumps({"id": case["id"], "unsupported": str(exc)}))
                problems = [str(exc)]
            else:
                print(json.dumps({"id": case["id"], "got": got}))
                problems = check(got, case["expect"]) if "expect" in case else []
            if "expect" in case:
                graded = True
                if problems:
                    failed += 1
                    if args.failures:
                        print(f"{case['id']}: {'; '.join(problems)}", file=sys.stderr)
                else:
                    passed += 1
    if graded:
        print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
