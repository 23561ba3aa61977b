"""One small ``DynamicItem`` base, :class:`bot.ui.buttons.ItemAsSent`, serves the families
of custom ids that route on the id themselves (leaderboards and history, the settings
panel): each subclass's own ``template=`` is the one discord.py matches (issue 12)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.features.community.cog import CommunityItem
from bot.features.settings import SettingsItem
from bot.ui.buttons import ItemAsSent
from tests.bot.conftest import post_buttons, simulation


async def test_each_subclass_of_the_base_dispatches_on_its_own_template(tmp_path: Path) -> None:
    clicked: list[tuple[str, str]] = []

    class Apples(ItemAsSent, template=r"apple:.*"):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            clicked.append(("apples", self.custom_id))
            await interaction.response.send_message("apple", ephemeral=True)

    class Pears(ItemAsSent, template=r"pear:.*"):
        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            clicked.append(("pears", self.custom_id))
            await interaction.response.send_message("pear", ephemeral=True)

    async with simulation(tmp_path, members=1, test_buttons=True) as sim:
        [ann] = sim.members
        sim.bot.add_dynamic_items(Apples, Pears)
        message = await post_buttons(sim, ann, "apple:1", "pear:2")

        apple = await ann.click(message, custom_id="apple:1")
        pear = await ann.click(message, custom_id="pear:2")

        assert apple.acknowledged and pear.acknowledged
        assert clicked == [("apples", "apple:1"), ("pears", "pear:2")]
        assert apple.response is not None and apple.response.content == "apple"


def test_the_two_families_share_the_base() -> None:
    """Their clicks still dispatch (tests/bot/test_community*.py click both)."""
    for family in (CommunityItem, SettingsItem):
        assert issubclass(family, ItemAsSent)
        assert "from_custom_id" not in vars(family)  # the base's, not a copy
