"""The web face: ``python -m bot web`` serves a read-only site on the bot's database, in a process of its own --
match reviews (``/m/<id>``), tournament pages (``/t/<id>``, live) and each server's boards (``/s/<server>/<game>``)
with each player's page -- for the servers that made their pages public (``/settings web on``).

* :mod:`bot.web.app` -- the aiohttp application and its routes;
* :mod:`bot.web.pages` -- what each page shows, read from storage, in the server's language;
* :mod:`bot.web.reviews` -- each finished Air War match's review, computed once after it ended and stored;
* :mod:`bot.web.links` -- the pages' addresses (what the bot links to).
"""
