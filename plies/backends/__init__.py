"""The back ends: each emits a game model's code from the lowering's IR (``python``, ``native``)."""
