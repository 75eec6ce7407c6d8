"""Formal model of the rules: Z3 proofs that the invariants hold in every state, and a check
that the Python engine implements the same transition relation (issue 4).

* :mod:`.model` — the symbolic state (card counts per zone, flags, phase) and its concrete
  counterpart :class:`~.model.Position`.
* :mod:`.cards` — one function per card effect, and the play step.
* :mod:`.steps` — draws, knock-outs, end of turn and round, showdown, tokens, new round.
* :mod:`.obligations` — invariants, step properties, obligations, results.
* :mod:`.mutants` — deliberately broken rules that the obligations must catch.
* :mod:`.engine_check` — the engine's steps and legal actions against the model.
* :mod:`.report` — ``prove(preset, tier, timeout_ms, seed)`` and ``format_table``.

Nothing runs at import time.
"""
