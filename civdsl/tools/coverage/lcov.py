"""An lcov tracefile (`geninfo`'s format), which genhtml, Codecov, Coveralls and most editors' coverage
gutters read: per rule file `SF`, its rules as functions (`FN`/`FNDA`, `FNF`/`FNH`), its arms of
branches (`BRDA`, `BRF`/`BRH`), its lines (`DA`, `LF`/`LH`), and `end_of_record`.

Counts are 1 or 0: coverage records whether a site ran, not how often. An arm on a line that never ran
is `-`, as lcov writes a branch whose block was never reached.
"""
from __future__ import annotations

from .results import FileCoverage


def _name(text: str) -> str:
    """A rule's name as an lcov function name: no commas (they separate fields) nor line breaks."""
    return text.replace(",", ";").replace("\n", " ")


def lcov_text(files: list[FileCoverage]) -> str:
    out = ["TN:"]
    for f in files:
        out.append(f"SF:{f.name}")
        names: dict[str, int] = {}
        fns = []
        for rule, ran in f.rules:
            name = _name(rule.name)
            names[name] = names.get(name, 0) + 1
            if names[name] > 1:  # (a rule an option replaces in the same file has the same name)
                name = f"{name} #{names[name]}"
            fns.append((rule.line, name, ran))
        out.extend(f"FN:{line},{name}" for line, name, _ in fns)
        out.extend(f"FNDA:{int(ran)},{name}" for _, name, ran in fns)
        out.append(f"FNF:{len(fns)}")
        out.append(f"FNH:{sum(ran for _, _, ran in fns)}")
        for block, (branch, ran) in enumerate(f.branches):
            reached = f.lines.get(branch.line, True)
            for i, yes in enumerate(ran):
                out.append(f"BRDA:{branch.line},{block},{i},{int(yes) if reached else '-'}")
        out.append(f"BRF:{f.arms}")
        out.append(f"BRH:{f.arms_run}")
        out.extend(f"DA:{line},{int(ran)}" for line, ran in f.lines.items())
        out.append(f"LF:{len(f.lines)}")
        out.append(f"LH:{f.lines_run}")
        out.append("end_of_record")
    return "\n".join(out) + "\n"
