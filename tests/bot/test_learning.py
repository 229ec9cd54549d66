"""Learning the games through Discord: ``/help``, the paged ``/rules`` tutorial, its practice
game, all through the simulator with the real client.

Every page of every tutorial is reached by clicking, as a member would; each picture is
decoded and read back against the engine with the tutorial's own checks
(:func:`tests.tutorial.pictures.page_problems`).
"""

from __future__ import annotations

import pytest

from bot.features.learning import Learning
from bot.settings import Settings
from discord_sim.models import SimMessage
from engine import get_spec
from i18n import phrase, translate
from tests.bot.helpers import (
    decode_png,
    last_board_message,
    match_id_of,
    pinged,
    stored_match,
)
from tests.bot.test_leiff import table_id
from tests.bot.test_vs_bot import ai_in_thread
from tests.tutorial.pictures import page_problems
from tutorial import help_text, tutorial_games, tutorial_page, tutorial_pages

LEAF_GREEN = 0x3E7D45


def box_of(message: SimMessage) -> dict:
    """The one box (Components v2 container) the message is, within Discord's limits."""
    assert message.is_v2 and not message.content and not message.embeds
    assert message.component_count <= 40
    (box,) = message.components
    assert box["type"] == 17 and box["accent_color"] == LEAF_GREEN
    return box


def check_page(message: SimMessage, game: str, number: int, language: str = "en") -> None:
    """The message shows page ``number`` of ``game``: words, counter, buttons, picture."""
    page = tutorial_page(game, number, language)
    box = box_of(message)
    title = phrase(language, get_spec(game).title())
    # the title, the words, the picture, the counter, then the buttons, in one box
    assert [c["type"] for c in box["components"]][:4] == [10, 10, 12, 10]
    assert message.texts[:3] == [f"### {title} · {page.title}", page.body, f"-# {page.counter}"]
    assert message.attachments[0].filename == page.filename
    assert [a.filename for a in message.gallery_pictures] == [page.filename]
    image = decode_png(message)
    assert page_problems(game, number, image, language) == [], (game, number)
    buttons = {b.label: b for b in message.buttons}
    previous = translate(language, "bot.learning.previous")
    following = translate(language, "bot.learning.next")
    assert buttons[previous].disabled == (number == 1)
    assert buttons[following].disabled == (number == page.count)
    practice = translate(language, "tutorial.practice.button")
    assert (practice in buttons) == (number == page.count)


async def test_help_says_what_the_bot_is_in_one_private_message(sim, world, bot):
    answer = await sim.slash(world.alice, "help")
    assert answer.ephemeral
    message = answer.last_message
    text = help_text("en", bot_name=sim.bot_user.display_name)
    box_of(message)
    assert message.texts[0] == f"## {text.title}\n{text.intro}"
    description = message.text
    for game in ("Lefe", "Dalen", "Lublache", "Les", "Leiff"):
        assert f"**{game}**:" in description
    for command in ("`/play game:Lefe`", "`/rules game:Lefe`", "/leaderboard", "/settings"):
        assert command in description
    assert f"opponent:@{sim.bot_user.display_name}" in description
    # each game's line has its Learn button beside it
    learn = [f"Learn {phrase('en', get_spec(g).title())}" for g in tutorial_games()]
    assert [b.label for b in message.buttons] == learn
    beside = {s["accessory"]["label"]: s["components"][0]["content"] for s in message.sections}
    for game in tutorial_games():
        title = phrase("en", get_spec(game).title())
        assert beside[f"Learn {title}"].startswith(f"**{title}**: ")
    assert not [m for m in world.channel.messages if not m.ephemeral], "/help posted publicly"

    # A German client reads it in German, the commands as German clients name them.
    world.bob.locale = "de"
    german = (await sim.slash(world.bob, "help")).last_message
    assert german.texts[0].startswith(f"## {help_text('de').title}\n")
    assert "/spielen" in german.text
    assert "Lefe lernen" in [b.label for b in german.buttons]
    sim.assert_no_bot_errors()


@pytest.mark.parametrize("game", tutorial_games())
async def test_every_page_of_a_tutorial_is_reached_by_clicking(sim, world, bot, game):
    helped = (await sim.slash(world.alice, "help")).last_message
    title = phrase("en", get_spec(game).title())
    opened = await sim.click(world.alice, helped, f"Learn {title}")
    page = opened.last_message
    assert page.ephemeral and page.id != helped.id, "/help's button opens its own message"
    count = len(tutorial_pages(game))
    check_page(page, game, 1)
    for number in range(2, count + 1):
        turned = await sim.click(world.alice, page, "Next")
        assert turned.last_message.id == page.id, "Next turns the page in place"
        page = sim.state.messages[page.id]
        check_page(page, game, number)
    back = await sim.click(world.alice, page, "Previous")
    check_page(sim.state.messages[back.last_message.id], game, count - 1)
    # /rules opens the same tutorial directly.
    direct = await sim.slash(world.alice, "rules", game=game)
    assert direct.ephemeral
    check_page(direct.last_message, game, 1)
    sim.assert_no_bot_errors()


async def test_a_tutorial_reads_in_german_for_a_german_client(sim, world, bot):
    world.carol.locale = "de"
    page = (await sim.slash(world.carol, "rules", game="lublache")).last_message
    check_page(page, "lublache", 1, "de")
    await sim.click(world.carol, page, "Weiter")
    check_page(sim.state.messages[page.id], "lublache", 2, "de")
    sim.assert_no_bot_errors()


async def test_an_old_page_turns_after_a_restart(sim, world, make_bot):
    await sim.start_bot(make_bot)
    page = (await sim.slash(world.alice, "rules", game="dalen")).last_message
    await sim.click(world.alice, page, "Next")
    await sim.restart_bot(make_bot)
    # The page was drawn by the old process; its Next is served by the new one.
    turned = await sim.click(world.alice, sim.state.messages[page.id], "Next")
    assert turned.last_message.id == page.id
    check_page(sim.state.messages[page.id], "dalen", 3)
    sim.assert_no_bot_errors()


async def last_page(sim, user, game: str) -> SimMessage:
    page = (await sim.slash(user, "rules", game=game)).last_message
    for _ in range(len(tutorial_pages(game)) - 1):
        await sim.click(user, sim.state.messages[page.id], "Next")
    return sim.state.messages[page.id]


async def test_the_last_page_starts_a_practice_game_against_the_bot(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    page = await last_page(sim, world.alice, "lefe")
    await sim.click(world.alice, page, "Practise against the bot (easy)")
    board = last_board_message(world.channel)
    match = await stored_match(handle, match_id_of(board))
    assert match.game == "lefe" and match.status == "running"
    assert match.vs_bot and match.bot_level == "easy" and not match.rated
    assert [s.user_id for s in match.seats] == [world.alice.id, sim.bot_user.id]
    assert pinged(board) == {world.alice.id}
    # The tutorial page keeps its words and picture (greyed, if at all, in its own layout).
    kept = sim.state.messages[page.id]
    assert kept.is_v2 and kept.texts[0].startswith("### Lefe · ")
    assert [a.filename for a in kept.gallery_pictures] == [kept.attachments[0].filename]
    sim.assert_no_bot_errors()


async def test_the_leiff_practice_button_deals_a_table_with_bot_seats(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    page = await last_page(sim, world.bob, "leiff")
    started = await sim.click(world.bob, page, "Practise against the bot (easy)")
    await handle.client.delivery.bots_idle()
    table = next(m for m in world.channel.messages if not m.ephemeral and "table #" in m.text)
    match = await stored_match(handle, table_id(table))
    assert match.game == "leiff" and match.status == "running", started.text
    assert [s.is_bot for s in match.seats] == [False, True, True]
    assert match.seats[0].user_id == world.bob.id
    assert sim.dms(world.bob), "the member's hand arrives by DM"
    sim.assert_no_bot_errors()


async def test_rules_link_the_published_rules_page(sim, world, make_bot):
    handle = await sim.start_bot(make_bot)
    page = (await sim.slash(world.alice, "rules", game="les")).last_message
    assert not [b for b in page.buttons if b.url], "no link without DOCS_URL"
    learning = next(f for f in handle.client.features if isinstance(f, Learning))
    learning.docs_url = "https://example.org/leafbot/docs/"
    linked = (await sim.slash(world.alice, "rules", game="les")).last_message
    (link,) = [b for b in linked.buttons if b.url]
    assert link.label == "Rules page"
    assert link.url == "https://example.org/leafbot/docs/rules/les.md"
    sim.assert_no_bot_errors()


def test_the_docs_url_is_read_from_the_environment():
    assert Settings.load({"DOCS_URL": " https://x.org/docs "}, dotenv=None).docs_url == (
        "https://x.org/docs"
    )
    assert Settings.load({}, dotenv=None).docs_url is None
