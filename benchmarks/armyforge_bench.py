"""Army Forge import timings, printed (run on demand: ``python benchmarks/armyforge_bench.py``).

The fixtures as shipped, then hostile files near the 1 MiB cap (a flood of weapons, of units, of unbalanced
parentheses, of long lines) and a JSON export of 96 units: each read and mapped (or refused), median of 5.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from game.armyforge.convert import convert  # noqa: E402
from game.armyforge.export import ExportRefused  # noqa: E402
from game.armyforge.json_export import parse_json  # noqa: E402
from game.armyforge.text_export import parse_text  # noqa: E402

FIX = ROOT / "tests" / "fixtures" / "armyforge"
HEAD = "++ A [AoF 500pts] ++\n"


def run(parse, text: str) -> tuple[float, str]:  # type: ignore[no-untyped-def]
    times, outcome = [], ""
    for _ in range(5):
        t0 = time.perf_counter()
        try:
            plan = convert(parse(text, "f"))
            outcome = f"{len(plan.entries)} entries, {len(plan.unknown)} unknown"
        except ExportRefused as e:
            outcome = f"refused, {len(e.problems)} problems listed"
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000, outcome


def main() -> None:
    cases = [(f.name, parse_json if f.suffix == ".json" else parse_text, f.read_text()) for f in sorted(FIX.iterdir())]
    doc = json.loads((FIX / "ashen_host.json").read_text())
    doc["units"] = doc["units"] * 16
    cases += [
        ("json, 96 units", parse_json, json.dumps(doc)),
        ("weapons flood", parse_text,
         HEAD + "U [10] Q4+ D4+ | 10pts |\n" + ("10x Spear (A1, Counter), " * 70 + "\n") * 550),
        ("units flood", parse_text, HEAD + ("U [10] Q4+ D4+ | 10pts | " + "Tough(3), " * 40 + "\n10x Spear (A1)\n\n")
         * 3000),
        ("parentheses flood", parse_text, HEAD + "U [10] Q4+ D4+ | 10pts |\n\n" + ("(" * 1999 + "\n\n") * 500),
        ("long lines", parse_text, HEAD + ("x" * 1990 + " [10] Q4+ D4+\n") * 500),
    ]
    for name, parse, text in cases:
        ms, outcome = run(parse, text)
        print(f"{name:24} {len(text):>9,} chars {ms:8.1f} ms  {outcome}")


if __name__ == "__main__":
    main()
