"""Routes are registered, not found by name: each presenter's table of what shows an event type, and the kernel's
methods a panel key calls."""

from __future__ import annotations

import pytest

from bot.match.kernel import MatchKernel
from cogs.airwar import AirWarCog
from cogs.airwar.presenter import AirWarPresenter
from cogs.army import ArmyCog
from cogs.bundlewar.presenter import BundleWarPresenter
from cogs.kit.match_cog import CHOICES
from cogs.kit.presenter import Presenter, shows
from cogs.war.presenter import WarPresenter


def test_a_presenter_shows_the_kits_events_and_its_own_each_with_its_registered_method():
    table = AirWarPresenter.shown_by
    assert table["lobby"] is table["challenge"] is Presenter.shown_by["challenge"]  # the kit's, one method for both
    assert table["flip"] is AirWarPresenter._on_flip and table["engagement"] is AirWarPresenter._on_engagement
    assert "flip" not in Presenter.shown_by and "flip" not in WarPresenter.shown_by  # a game's own, nobody else's
    # one method for a whole round's events
    assert {BundleWarPresenter.shown_by[kind] for kind in ("battle", "war", "take", "game_over")} == \
        {BundleWarPresenter._on_round_event}


def test_a_presenters_own_method_for_an_event_replaces_the_kits():
    assert WarPresenter.shown_by["accepted"] is WarPresenter._on_accepted is not Presenter.shown_by["accepted"]


def test_overriding_what_shows_an_event_without_registering_it_is_refused_at_once():
    with pytest.raises(TypeError, match=r"register it with @shows\('accepted'\)"):

        class Forgetful(Presenter):
            async def _on_accepted(self, show, event) -> None:
                return None

    class Registered(Presenter):
        @shows("accepted")
        async def _on_accepted(self, show, event) -> None:
            return None

    assert Registered.shown_by["accepted"] is Registered._on_accepted


def test_panel_keys_call_the_kernels_methods_and_the_choices_are_the_locking_ones():
    assert AirWarCog.panel_actions["card:"] is MatchKernel.tap
    assert AirWarCog.panel_actions["confirm"] is MatchKernel.confirm in CHOICES
    assert ArmyCog.panel_actions["play:"] is MatchKernel.pick in CHOICES
    assert MatchKernel.as_drawn not in CHOICES
