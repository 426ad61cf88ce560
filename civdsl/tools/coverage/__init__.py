"""Rule coverage: which rules, lines and branches of rule files ran (`civdsl test --coverage`,
`civdsl check --simulate N --coverage`), like coverage.py for Python.

What ran is recorded by the generated code itself while coverage is on (`recorder`, and the compiler's
`units.CoverageHook`); what could have run is read from the rule files' syntax trees (`sites`); the two
meet in `results`, which the reports render: a text table (`report`), Cobertura XML (`cobertura`) and an
lcov tracefile (`lcov`). `editions` measures the shipped editions by their own scenarios (the published
figures and the floor CI holds them to).
"""
