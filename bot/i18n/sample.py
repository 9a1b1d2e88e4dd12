"""``python -m bot.i18n.sample LANGUAGE [--seed 11]``: a reproducible sample of a language's translations for a
native speaker to review: 50 ordinary strings and 10 plurals from every catalogue (the shared one and each game's),
chosen by a hash of the seed and the string, so the same strings come out again for the same seed, and adding a
few strings to the catalogues changes the sample only where a new string ranks among the chosen. Prints one JSON
object per line: ``key`` (the English, ``context\\u0004English`` with a context), ``english`` (a plural's singular) and
``translation`` (a plural's: the list of its forms)."""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES
from bot.i18n.extract import known_translations, sources

ORDINARY = 50
PLURALS = 10


def _rank(seed: int, key: str) -> str:
    return hashlib.sha256(f"{seed}\x00{key}".encode()).hexdigest()


def sample(language: str, seed: int = 11, ordinary: int = ORDINARY, plurals: int = PLURALS) -> list[dict[str, Any]]:
    """The sample of ``language``'s translated strings (see the module's docstring), plurals last."""
    translations = known_translations((source.domain for source in sources()), language)
    entries = []
    for (context, english), translation in translations.items():  # (a plural: its singular, and its forms)
        key = (f"{context}\x04" if context else "") + english
        entries.append({"key": key, "english": english,
                        "translation": translation if isinstance(translation, str) else list(translation)})
    single = sorted((e for e in entries if isinstance(e["translation"], str)), key=lambda e: _rank(seed, e["key"]))
    plural = sorted((e for e in entries if not isinstance(e["translation"], str)),
                    key=lambda e: _rank(seed, e["key"]))
    return single[:ordinary] + plural[:plurals]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.i18n.sample", description=__doc__)
    parser.add_argument("language", choices=[language for language in LANGUAGES if language != DEFAULT_LANGUAGE])
    parser.add_argument("--seed", type=int, default=11)
    arguments = parser.parse_args()
    for entry in sample(arguments.language, arguments.seed):
        print(json.dumps(entry, ensure_ascii=False))


if __name__ == "__main__":
    main()
