"""The balance lab: many seeded games of a config played in parallel (`runner`), stored in a DuckDB
file (`store`), measured (`stats`), compared (`compare`) and drawn (`plots`).

Rows are plain dicts, the same in memory and in the database (see `store` for the tables):

- a game: run_id, config_hash, ruleset_hash, edition, seed, players, rounds, end_reason ("victory",
  "round cap", "ended by rule"; None when the game failed), winners (list of "P1"...), wall_time (s),
  error_code, error_message, error_rule (None unless the game failed);
- a player in a game: run_id, config_hash, seed, seat (1-based), player ("P1"), label (what
  `victory { label: }` calls the player — a nation, a civilization — or None), agent, place (1 = first),
  score (or None), winner (bool), breakdown (dict);
- a measurement a rule took (`measure(name, {...})`): run_id, config_hash, seed, seq (order in the
  game), round, name, player (the record's `player` field, or None), value (its `value` field when it
  is a number, else None), fields (the whole record, dict).
"""
