"""A Leiff table of four played by four members at once, three each in a browser of their
own (partly through the bot's private messages too) and the fourth through the bot's
messages alone: the same table, both front ends, live both ways.

The bot is the real discord.py client against the simulator; each member's table is open
in a chromium of its own (Selenium), signed in as that member. Every browser shows its own
hand and no other's; an action clicked on the web shows in the others' browsers and in the
channel; an action made with a DM button shows in every browser.
"""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select

from bot.app import LeafBot
from discord_sim.harness import DiscordSimulator, World
from engine.leiff.actions import OUT_OF_TURN_KINDS
from tests.bot.leiff_driver import LeiffTable
from tests.bot.test_leiff import enable_expansions, open_table
from tests.web.browser import click_css, start_chromium, until
from web.sessions import Identity

SCREENSHOTS = os.environ.get("LEAFBOT_SCREENSHOTS")
STEPS = 36


def table_shown(driver: WebDriver) -> dict[str, Any]:
    """The Leiff table as the page shows it: its version, each seat's cards (a label, or
    None face down), the actions on offer."""
    shown: dict[str, Any] = driver.execute_script(
        """
        const seats = document.getElementById('leiff-seats');
        return {
          version: Number(seats.dataset.version ?? -1),
          visible: !document.getElementById('leiff').hidden,
          cards: [...seats.querySelectorAll('.seat')].map(s =>
            [...s.querySelectorAll('.card')].map(c => c.dataset.label ?? null)),
          you: [...seats.querySelectorAll('.seat')].findIndex(s => s.classList.contains('you')),
          actions: [...document.querySelectorAll('#leiff [data-action]')].map(b => b.dataset.action)
            .concat([...document.querySelectorAll('#leiff select.menu option')].map(o => o.value).filter(v => v)),
          lines: [...document.querySelectorAll('#leiff-lines li')].map(li => li.textContent),
        };
        """
    )
    return shown


def click_action(driver: WebDriver, action: str) -> None:
    """A real click on the action's button (beside a card or in the bar), or its menu."""
    if driver.find_elements("css selector", f'#leiff [data-action="{action}"]'):
        click_css(driver, f'#leiff [data-action="{action}"]')
        return
    for menu in driver.find_elements("css selector", "#leiff select.menu"):
        if menu.find_elements("css selector", f'option[value="{action}"]'):
            Select(menu).select_by_value(action)
            return
    raise AssertionError(f"no control for {action!r} on the page")


@pytest.mark.compressed_rate_limits
async def test_three_members_play_one_leiff_table_in_browsers_and_dms(
    sim: DiscordSimulator,
    world: World,
    make_web_bot: Callable[..., LeafBot],
    chromium: Any,
    tmp_path: Path,
) -> None:
    handle = await sim.start_bot(make_web_bot)
    client: LeafBot = handle.client
    assert client.web_table is not None and client.web_address is not None
    await enable_expansions(sim, world)
    # a table of four: three in browsers, the fourth (the admin) in Discord alone
    players = [world.alice, world.bob, world.carol, world.admin]
    browsers = 3
    match_id, _ = await open_table(sim, world, players)
    table = LeiffTable(sim, handle, match_id, players, world.channel)
    drivers: list[WebDriver] = [chromium]
    try:
        drivers += [await asyncio.to_thread(start_chromium) for _ in range(2)]
        for driver, member in zip(drivers, players[:browsers], strict=True):
            token = await client.web_table.sessions.issue(Identity(member.id, member.name, "en"))
            await asyncio.to_thread(driver.get, f"{client.web_address}/#")
            await asyncio.to_thread(
                driver.execute_script,
                "sessionStorage.setItem('leafbot-session', arguments[0]);"
                "location.hash = arguments[1]; location.reload();",
                token,
                f"match={match_id}",
            )
        state = await table.state()
        record = await handle.client.service.get_match(match_id)
        for seat, driver in enumerate(drivers):
            shown = await until(
                lambda d=driver: (
                    (s := table_shown(d))["visible"] and s["version"] == record.version and s
                ),
                f"seat {seat}'s table",
            )
            check_hands(shown, state, seat)
        rng = random.Random(5)
        clicked = dms = out_of_turn = 0
        for step in range(STEPS):
            state = await table.state()
            waiting = state.waiting_for()
            if waiting["step"] == "over":
                break
            owner = waiting["owners"][0]
            own = [
                a
                for a in state.legal_actions(owner)
                if a.split(" ", 1)[0] not in OUT_OF_TURN_KINDS and not a.startswith("rule")
            ]
            action = (
                state.default_action(owner) if rng.random() < 0.6 or not own else rng.choice(own)
            )
            free = next((a for a in state.legal_actions(owner) if a.startswith("rule")), None)
            before = (await handle.client.service.get_match(match_id)).version
            # a catch out of turn at the first turn from the fourth step on, and again
            # every seventh (the deal is not seeded: a given step need not be a turn)
            if waiting["step"] == "turn" and (step % 7 == 3 or (step >= 3 and not out_of_turn)):
                # out of turn, on the web: someone else catches a card of the turn player
                other = (owner + 1) % browsers
                catch = f"catch {owner}.1"
                shown = await asyncio.to_thread(table_shown, drivers[other])
                assert catch in shown["actions"]
                await asyncio.to_thread(click_action, drivers[other], catch)
                out_of_turn += 1
            elif owner >= browsers:  # the fourth member: the bot's messages alone
                if free is not None:
                    await table.write_rule(players[owner], "Everyone says Prost")
                else:
                    await table.act(players[owner], action)
                dms += 1
            elif free is not None:
                # the Klatschtante's rule, typed on the web
                await asyncio.to_thread(write_rule, drivers[owner], "Everyone says Prost")
                clicked += 1
            elif step % 2 == 0 or action == "next":  # the next deal: the channel's button
                await until(
                    lambda d=drivers[owner], a=action: a in table_shown(d)["actions"],
                    f"{action!r} on seat {owner}'s page",
                )
                await asyncio.to_thread(click_action, drivers[owner], action)
                clicked += 1
            else:
                await table.act(players[owner], action)
                dms += 1
            record = await until_version(handle, match_id, before)
            state = await table.state()
            for seat, driver in enumerate(drivers):
                shown = await until(
                    lambda d=driver, v=record.version: (s := table_shown(d))["version"] == v and s,
                    f"version {record.version} in seat {seat}'s browser",
                )
                check_hands(shown, state, seat)
            if step == 8:
                folder = Path(SCREENSHOTS) if SCREENSHOTS else tmp_path
                folder.mkdir(parents=True, exist_ok=True)
                for seat, driver in enumerate(drivers):
                    await asyncio.to_thread(screenshot, driver, folder / f"leiff-seat{seat}")
        assert clicked >= 5 and dms >= 5 and out_of_turn >= 1
        # the channel followed the web's clicks: the table message shows the newest version
        await table.audit()
    finally:
        for driver in drivers[1:]:
            await asyncio.to_thread(driver.quit)


def check_hands(shown: dict[str, Any], state: Any, seat: int) -> None:
    """The page shows exactly what the seat's own view holds: its own known cards, and
    no card of another seat it does not know."""
    view = state.view(seat)
    assert shown["you"] == seat
    assert shown["cards"] == view["hands"], (seat, shown["cards"], view["hands"])


async def until_version(handle: Any, match_id: int, before: int) -> Any:
    for _ in range(400):
        record = await handle.client.service.get_match(match_id)
        if record.version > before:
            return record
        await asyncio.sleep(0.025)
    raise AssertionError("the action was not committed")


def write_rule(driver: WebDriver, text: str) -> None:
    driver.find_element("css selector", '#leiff [data-action^="rule"]').click()
    field = driver.find_element("id", "rule-text")
    field.clear()
    field.send_keys(text)
    driver.find_element("id", "rule-send").click()


def screenshot(driver: WebDriver, name: Path) -> None:
    for width in (360, 1280):
        driver.set_window_size(width, 900)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, max(600, int(height) + 140))
        driver.save_screenshot(f"{name}-{width}.png")
    driver.set_window_size(1280, 900)
