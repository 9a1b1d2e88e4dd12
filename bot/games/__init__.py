"""The games: a package each, plugins only.

Each game is a package here (``bot/games/<game>/``) holding everything that is its own: the engine (pure rules,
``engine.py``, a :class:`bot.game.Game`), its rendering, its match flow, its players' rules texts
(``rules/<name>.md``). The package's ``__init__`` declares one :class:`bot.registry.GamePlugin` named ``PLUGIN``,
which :mod:`bot.registry` finds by itself. Nothing below the games (the match kernel, storage, rendering, the
catalogues) imports a game package: they ask the registry.
"""
