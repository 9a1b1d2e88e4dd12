"""``python -m bot.i18n extract``: gather the strings to translate into ``bot/i18n/locales/airwar.pot`` and add the
new ones to each language's catalogue (``bot/i18n/locales/<language>.po``); prints how many each still lacks."""

from __future__ import annotations

import argparse
import logging

from bot.i18n.extract import TEMPLATE, extract


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n", description=__doc__)
    parser.add_argument("command", choices=["extract"])
    parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    missing = extract()
    print(f"wrote {TEMPLATE}")
    for language, count in missing.items():
        print(f"{language}: {count} strings to translate" if count else f"{language}: complete")


if __name__ == "__main__":
    main()
