"""``python -m bot.i18n extract``: gather the strings to translate into each domain's template (the shared one,
``bot/i18n/locales/airwar.pot``; a game's, ``bot/games/<game>/locales/<game>.pot``) and add the new ones to the
domain's catalogue of each language (``locales/<language>.po`` beside it); prints how many each still lacks.
``python -m bot.i18n fill FILE.json``: put the translations of a JSON file (``{"English": {"de": "Deutsch", ...}}``,
``"context\u0004English"`` for a string with a context, a list of forms for a plural) into the catalogues of every
domain that holds each string. ``python -m bot.i18n.check``: what is missing or wrong."""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from bot.i18n.extract import extract, fill, sources


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__)
    parser.add_argument("command", choices=["extract", "fill"])
    parser.add_argument("file", nargs="?", type=Path, help="fill: the JSON file of translations")
    arguments = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    if arguments.command == "fill":
        if arguments.file is None:
            parser.error("fill takes the JSON file of translations")
        counts = fill(json.loads(arguments.file.read_text(encoding="utf-8")))
        print(", ".join(f"{language}: {count}" for language, count in counts.items()))
        return
    missing = extract()
    for source in sources():
        print(f"wrote {source.domain.template_path}")
    for language, count in missing.items():
        print(f"{language}: {count} strings to translate" if count else f"{language}: complete")


if __name__ == "__main__":
    main()
